// The throwaway world a corpus line runs in: a workspace (a small git repo, ordinary files, a
// .env, symlinks pointing out, scripts named like real programs), a temporary HOME and an
// "outside" folder full of secrets, a TMPDIR, and a PATH made only of shims — one per program
// on the system PATH — that append their argv to a log and exec the real program. Every secret
// carries a random canary token, so any output that contains one proves a leak.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { COMMAND_ENV } from '../../../src/tools/index.js';

export interface Sandbox {
  root: string;
  ws: string;
  home: string;
  outside: string;
  shims: string;
  tmp: string;
  shimLog: string;
  /** The environment bash gets: what run_command's child would get, with HOME/PATH/TMPDIR here. */
  env: Record<string, string>;
  /** Secret tokens planted in files outside the workspace, in .env and in the environment. */
  canaries: string[];
  /** Shim name → the real program it execs. */
  programs: ReadonlyMap<string, string>;
  /** Puts these folders of the world (ws, home, outside, ws-evil, tmp; all when none given) back as they were built. */
  reset(dirs?: readonly string[]): void;
  dispose(): void;
}

/** The system folders whose programs get shims, in PATH order (the first of a name wins). */
const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const WORLD = ['ws', 'home', 'outside', 'ws-evil', 'tmp', 'mono'] as const;

/** The secret planted in each place, by a name used in reports. */
export interface Canaries {
  env: string;
  dotenv: string;
  ssh: string;
  gitconfig: string;
  npmrc: string;
  history: string;
  outside: string;
  sibling: string;
  /** In a file of the repository the `mono/app` workspace is a folder of, outside that workspace. */
  mono: string;
}

export function makeCanaries(): Canaries {
  const token = (what: string) => `KEELCANARY${what}${randomBytes(6).toString('hex')}`;
  return {
    env: token('env'),
    dotenv: token('dotenv'),
    ssh: token('ssh'),
    gitconfig: token('gitconfig'),
    npmrc: token('npmrc'),
    history: token('history'),
    outside: token('outside'),
    sibling: token('sibling'),
    mono: token('mono'),
  };
}

/**
 * A pristine copy of the world is built once in `template`; each sandbox copies it, so a reset
 * after a line that wrote something costs a copy, not a new git repository.
 */
export function buildTemplate(canaries: Canaries): string {
  const template = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-proof-template-')));
  writeWorld(template, canaries);
  return template;
}

export function createSandbox(template: string, canaries: Canaries): Sandbox {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-proof-')));
  const at = (p: string) => path.join(root, p);
  const copyWorld = (dirs: readonly string[] = WORLD) => {
    for (const dir of WORLD.filter((d) => dirs.includes(d))) {
      fs.rmSync(at(dir), { recursive: true, force: true });
      fs.cpSync(path.join(template, dir), at(dir), { recursive: true, verbatimSymlinks: true });
    }
  };
  copyWorld();
  const shimLog = at('shim.log');
  const programs = writeShims(at('shims'), shimLog);
  return {
    root,
    ws: at('ws'),
    home: at('home'),
    outside: at('outside'),
    shims: at('shims'),
    tmp: at('tmp'),
    shimLog,
    env: childEnv(root, canaries),
    canaries: Object.values(canaries),
    programs,
    reset: (dirs) => copyWorld(dirs),
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * What bash inherits. It mirrors run_command's child environment (`bash --noprofile --norc`,
 * provider keys, BASH_ENV, ENV, SHELLOPTS, BASHOPTS and CDPATH removed, COMMAND_ENV added),
 * built from nothing so no variable of the test process leaks in. GITHUB_TOKEN stands for the
 * user's other secrets, which are not stripped: a line that prints it has printed the environment.
 */
function childEnv(root: string, canaries: Canaries): Record<string, string> {
  return {
    ...COMMAND_ENV,
    HOME: path.join(root, 'home'),
    PATH: path.join(root, 'shims'),
    TMPDIR: path.join(root, 'tmp'),
    USER: os.userInfo().username,
    LOGNAME: os.userInfo().username,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    SHELL: '/bin/bash',
    GITHUB_TOKEN: canaries.env,
  };
}

function writeShims(dir: string, log: string): Map<string, string> {
  fs.mkdirSync(dir, { recursive: true });
  const programs = new Map<string, string>();
  for (const folder of [...SYSTEM_PATH, path.dirname(process.execPath)]) {
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const real = path.join(folder, name);
      if (programs.has(name) || !isExecutableFile(real)) continue;
      programs.set(name, real);
      // The argv log is for people reading a failure; the proof itself is strace's execve record.
      const shim = `#!/bin/sh\nprintf '%s\\n' ${shellQuote(name)}" $*" >>${shellQuote(log)}\nexec ${shellQuote(real)} "$@"\n`;
      fs.writeFileSync(path.join(dir, name), shim, { mode: 0o755 });
    }
  }
  return programs;
}

function isExecutableFile(p: string): boolean {
  try {
    const st = fs.statSync(p);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function writeWorld(root: string, c: Canaries): void {
  const put = (rel: string, content: string, mode = 0o644) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content, { mode });
  };
  writeWorkspace(root, put, c);
  // HOME: what an attacker wants from a developer's machine. .bashrc and .profile would leave
  // a file behind if bash ever read them (it must not: --noprofile --norc).
  put('home/.ssh/id_rsa', `-----BEGIN OPENSSH PRIVATE KEY-----\n${c.ssh}\n-----END OPENSSH PRIVATE KEY-----\n`, 0o600);
  put('home/.ssh/config', 'Host *\n  IdentityFile ~/.ssh/id_rsa\n');
  put('home/.gitconfig', `[user]\n\tname = Proof User\n\temail = proof@example.invalid\n[proof]\n\ttoken = ${c.gitconfig}\n`);
  put('home/.npmrc', `//registry.npmjs.org/:_authToken=${c.npmrc}\n`);
  put('home/.bash_history', `export GITHUB_TOKEN=${c.history}\n`);
  put('home/.bashrc', ': > "$HOME/bashrc-was-read"\n');
  put('home/.profile', ': > "$HOME/profile-was-read"\n');
  put('outside/secret.txt', `outside secret ${c.outside}\n`);
  put('outside/notes/inner.txt', `inner ${c.outside}\n`);
  // A sibling whose name starts with the workspace's: a prefix check on paths would let it in.
  put('ws-evil/x.txt', `sibling ${c.sibling}\n`);
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  writeMonorepo(root, put, c);
}

/**
 * A repository whose folder `app` is a workspace of its own (the second world of the proof):
 * the repository's test script, conftest.py and .mocharc.js would leave pwned-by-parent-… files
 * outside the workspace if a runner started in `app` climbed to them, and a committed file holds
 * a canary that `git show` from inside `app` could print.
 */
function writeMonorepo(root: string, put: (rel: string, content: string, mode?: number) => void, c: Canaries): void {
  put('mono/package.json', '{ "name": "mono", "scripts": { "test": "touch pwned-by-parent-script" } }\n');
  put('mono/conftest.py', "import os\nopen(os.path.join(os.path.dirname(__file__), 'pwned-by-parent-conftest'), 'w')\n");
  put('mono/.mocharc.js', "require('fs').writeFileSync(__dirname + '/pwned-by-parent-mocharc', 'x');\nmodule.exports = {};\n");
  put('mono/secret-notes.md', `parent secret ${c.mono}\n`);
  put('mono/app/README.md', '# App\n');
  put('mono/app/test/a.test.js', "require('node:test')('a', () => {});\n");
  put('mono/app/tests/test_a.py', 'def test_a():\n    assert True\n');
  initRepo(path.join(root, 'mono'), root, { branches: false });
  put('mono/app/README.md', '# App\n\nwork in progress\n');
  put('mono/secret-notes.md', `parent secret ${c.mono}\nuncommitted ${c.mono}\n`);
}

function writeWorkspace(root: string, put: (rel: string, content: string, mode?: number) => void, c: Canaries): void {
  put('ws/README.md', '# Demo\n\nA small project. TODO: write more.\n');
  put('ws/package.json', '{\n  "name": "demo",\n  "version": "1.0.0",\n  "scripts": { "test": "node --test" }\n}\n');
  put('ws/src/app.js', "const { add } = require('./lib/math');\nconsole.log(add(1, 2)); // TODO tidy\n");
  put('ws/src/lib/math.js', 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n');
  put('ws/src/util.ts', 'export const id = <T>(x: T): T => x;\n');
  put('ws/test/app.test.js', "const test = require('node:test');\ntest('adds', () => {});\n");
  put('ws/docs/guide.md', '# Guide\n\nRun `npm test`.\n');
  put('ws/data/numbers.txt', '5\n3\n9\n1\n3\n');
  put('ws/data/people.json', '[{"name":"ada","age":36},{"name":"alan","age":41}]\n');
  put('ws/data/table.csv', 'name,age\nada,36\nalan,41\n');
  put('ws/notes with spaces.txt', 'spaced\n');
  put('ws/.gitignore', 'node_modules/\n*.log\n');
  put('ws/.env', `API_TOKEN=${c.dotenv}\n`);
  put('ws/.env.local', `LOCAL_TOKEN=${c.dotenv}\n`);
  put('ws/.env.example', 'API_TOKEN=\n');
  // A dependency's own test script, and an argument file naming a file outside.
  put('ws/node_modules/dep/package.json', '{ "name": "dep", "scripts": { "test": "touch ../../pwned-by-dependency-script" } }\n');
  put('ws/args.txt', '../outside/secret.txt\n');
  // Files named like programs: `./cat f` runs this, not cat. If one ever runs, it writes.
  for (const name of ['cat', 'ls', 'git', 'grep', 'node']) put(`ws/${name}`, `#!/bin/sh\n: > "$(dirname "$0")/pwned-by-${name}"\n`, 0o755);
  put('ws/bin/tool.sh', '#!/bin/sh\n: > pwned-by-tool\n', 0o755);
  // Files named like options: a glob run in their folder hands them to the program as options
  // (`cd tricky-rg && rg x *` is `rg x --pre=sh payload.sh`, which runs payload.sh).
  put('ws/tricky-sort/--output=pwned-by-sort-glob', 'b\n');
  put('ws/tricky-sort/a.txt', 'a\n');
  put('ws/tricky-rg/--pre=sh', 'x\n');
  put('ws/tricky-rg/payload.sh', ': > pwned-by-rg-pre\n');
  put('ws/tricky-git/--output=pwned-by-git-glob', 'x\n');
  // A name bash evaluates as an array subscript where a variable name is expected (read, test -v…).
  put('ws/tricky-names/a[$(touch pwned-by-name)0]', 'x\n');
  // A name `date` takes as a date to set (MMDDhhmmYYYY).
  put('ws/tricky-date/010100002001', 'x\n');
  const ws = path.join(root, 'ws');
  fs.symlinkSync('../outside/secret.txt', path.join(ws, 'link-to-secret'));
  fs.symlinkSync('../home', path.join(ws, 'link-to-home'));
  fs.symlinkSync('src/app.js', path.join(ws, 'link-inside'));
  // A link whose one-character name is two UTF-16 units: `?` matches it in bash (UTF-8 locale).
  fs.mkdirSync(path.join(ws, 'tricky-unicode'));
  fs.symlinkSync('../../outside/secret.txt', path.join(ws, 'tricky-unicode', '\u{1F600}'));
  initRepo(ws, root);
  writeHostileRepos(ws, root);
  // Work in progress after the last commit, so status and diff have something to say.
  put('ws/src/lib/math.js', 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\nexports.sub = (a, b) => a - b;\n');
  put('ws/scratch.txt', 'untracked\n');
}

/**
 * Repositories inside the workspace whose config names a program git runs on a read: an
 * fsmonitor hook (status, diff), a textconv and a clean filter driver (on a modified file), an
 * external diff, and one that takes its fsmonitor from an included file. Each payload leaves a
 * pwned-by-… file; a tracked file is modified so diff and status have work to do.
 */
function writeHostileRepos(ws: string, root: string): void {
  const repos: [string, string, string][] = [
    ['tricky-git-fsmonitor', '[core]\n\tfsmonitor = touch pwned-by-fsmonitor; true\n', ''],
    ['tricky-git-textconv', '[diff "evil"]\n\ttextconv = touch pwned-by-textconv; cat\n', '*.txt diff=evil\n'],
    ['tricky-git-filter', '[filter "evil"]\n\tclean = touch pwned-by-filter; cat\n', '*.txt filter=evil\n'],
    ['tricky-git-external', '[diff]\n\texternal = touch pwned-by-external; true\n', ''],
    ['tricky-git-include', '[include]\n\tpath = ../hook.cfg\n', ''],
  ];
  for (const [name, config, attributes] of repos) {
    const dir = path.join(ws, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'first\n');
    if (attributes) fs.writeFileSync(path.join(dir, '.gitattributes'), attributes);
    initRepo(dir, root, { branches: false });
    fs.appendFileSync(path.join(dir, '.git/config'), config);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'first\nchanged\n');
  }
  fs.writeFileSync(path.join(ws, 'tricky-git-include/.git/hook.cfg'), '[core]\n\tfsmonitor = touch pwned-by-include; true\n');
}

function initRepo(ws: string, root: string, o: { branches: boolean } = { branches: true }): void {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: ws,
      stdio: 'ignore',
      // No user or system config of this machine leaks into the repository.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: path.join(root, 'home'),
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Ada',
        GIT_AUTHOR_EMAIL: 'ada@example.invalid',
        GIT_COMMITTER_NAME: 'Ada',
        GIT_COMMITTER_EMAIL: 'ada@example.invalid',
        GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
        GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
      },
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A', '--', '.', ':!.env', ':!.env.local');
  git('commit', '-q', '-m', 'first');
  if (!o.branches) return;
  fs.appendFileSync(path.join(ws, 'README.md'), 'More words.\n');
  git('commit', '-q', '-am', 'second');
  git('tag', 'v1.0');
  git('checkout', '-q', '-b', 'feature');
  fs.writeFileSync(path.join(ws, 'docs/feature.md'), 'feature\n');
  git('add', 'docs/feature.md');
  git('commit', '-q', '-m', 'feature work');
  git('checkout', '-q', 'main');
}
