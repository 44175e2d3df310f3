// The classes of bypass the second attack round found, each closed in the classifier and the
// policy (the OS sandbox is the second line, tested on its own): a descriptor reopened for
// writing, options whose value the allowlist read differently from the program, argument files,
// a repository bigger than the workspace or configured to run programs, test runners that run
// what the workspace's parents say, and writes Keel did not name. Each case is what
// `keel run --approve execute` (or --approve all) would decide.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PolicyContext, ProcessOptions, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { createPolicy } from '../../../src/tools/policy/create-policy.js';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import { scratchDir } from '../../support/scratch.js';
import { context, proposedIntent as intent, toolNamed as tool } from './helpers.js';

/** A folder of files (and git repositories), as a workspace with the real sandbox. */
async function workspace(root: string, files: Record<string, string>, repos: string[] = []): Promise<Workspace> {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  for (const repo of repos) git(path.join(root, repo), 'init', '-q', '-b', 'main');
  return createNodeWorkspace(root, { sandbox: { rules: COMMAND_SANDBOX_RULES } });
}

function git(cwd: string, ...args: string[]): void {
  fs.mkdirSync(cwd, { recursive: true });
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } });
}

type Approve = 'execute' | 'all' | 'execute, sandbox off';

async function verdict(ws: Workspace, command: string, approve: Approve = 'execute', toolName = 'run_command'): Promise<string> {
  const all = approve === 'all';
  const policy = createPolicy({
    autoApprove: all ? ['read', 'write', 'execute', 'network'] : ['read', 'execute'],
    approveUnclassified: all,
    ...(approve === 'execute, sandbox off' ? { sandbox: 'off' as const } : {}),
  });
  const ctx: PolicyContext = { tool: tool(toolName), grants: [], workspace: ws };
  const d = await policy.decide(intent(toolName, { command }), ctx);
  return d.type;
}

async function expectAsks(ws: Workspace, commands: readonly string[], approve: Approve = 'execute'): Promise<void> {
  const ran: string[] = [];
  for (const c of commands) if ((await verdict(ws, c, approve)) === 'allow') ran.push(c);
  assert.deepEqual(ran, [], `these would run unasked (--approve ${approve}):\n${ran.join('\n')}`);
}

async function expectRuns(ws: Workspace, commands: readonly string[]): Promise<void> {
  const asked: string[] = [];
  for (const c of commands) if ((await verdict(ws, c)) !== 'allow') asked.push(c);
  assert.deepEqual(asked, [], `these should still run unasked:\n${asked.join('\n')}`);
}

describe('policy, round 2: the attack classes', function () {
  this.timeout(30_000);

  it('a descriptor reopened for writing: descriptor aliases ask even under --approve all; the fixed list runs', async () => {
    const ws = await workspace(scratchDir('r2-fd'), { 'README.md': '# x\n', 'package.json': '{}\n' });
    const hostile = [
      'echo "{}" 1<package.json >/dev/stdout',
      'cat README.md 3<package.json >/dev/fd/3',
      'echo x 2<package.json >/proc/self/fd/2',
      'echo x 0<package.json >/dev/stdin',
      'echo x >/dev/stderr',
      'echo x 3<README.md >&3',
    ];
    await expectAsks(ws, hostile, 'execute');
    await expectAsks(ws, hostile.slice(0, 5), 'all');
    await expectRuns(ws, ['ls >/dev/null 2>&1', 'cat < README.md', 'ls 2>/dev/null', 'ls &>/dev/null', 'echo x >&2', 'cat <<< hello']);
    await expectAsks(ws, [`cat <<< ${'a'.repeat(5000)}`]);
  });

  it("options read as the program reads them: tree's next-word values, git's attached-only -U, tsc --noEmit false, tail +N", async () => {
    const root = scratchDir('r2-opts');
    const ws = await workspace(root, { 'README.md': '# x\n', 'tsconfig.json': '{}\n' }, ['.']);
    await expectAsks(ws, [
      'tree -Lo 2 out.txt',
      'tree -aLo 1 README.md',
      'git diff -U /etc/passwd',
      'git diff --unified ../outside.txt',
      'git ls-files --exclude-per-directory=../../x',
      'tsc --noEmit false',
      'npx --no-install tsc --noEmit --strict --noEmit false',
      'tail +1f README.md',
      // Found by checking the tables against git's own option lists: shortlog's --committer is a flag, its --format attached.
      'git shortlog --committer ../outside.txt',
      'git shortlog --format ../outside.txt',
    ]);
    await expectRuns(ws, ['tree -L 2', 'tree -aL 1 -P "*.md"', 'git diff -U5 README.md', 'tsc --noEmit', 'tsc --noEmit --strict false']);
  });

  it('argument files (@FILE) ask', async () => {
    const ws = await workspace(scratchDir('r2-at'), { 'pytest.ini': '[pytest]\n', 'tsconfig.json': '{}\n', 'args.txt': '/etc/passwd\n' });
    await expectAsks(ws, [
      'pytest @args.txt',
      'python3 -m pytest -q @args.txt',
      'tsc --noEmit @args.txt',
      'npx --no-install tsc --noEmit @args.txt',
    ]);
    await expectRuns(ws, ['pytest -q', 'tsc --noEmit']);
  });

  it('a repository bigger than the workspace, or whose data is elsewhere, asks', async () => {
    const root = scratchDir('r2-mono');
    git(root, 'init', '-q', '-b', 'main');
    const ws = await workspace(path.join(root, 'packages/app'), { 'README.md': '# app\n' });
    await expectAsks(ws, ['git status', 'git show HEAD', 'git diff', 'git log -1', 'git -C . ls-files']);
    const linked = await workspace(scratchDir('r2-gitfile'), { '.git': 'gitdir: /elsewhere/.git\n', 'a.txt': 'a\n' });
    await expectAsks(linked, ['git status']);
    const alternates = await workspace(scratchDir('r2-alt'), { 'a.txt': 'a\n' }, ['.']);
    fs.writeFileSync(path.join(alternates.root, '.git/objects/info/alternates'), '/elsewhere/objects\n');
    await expectAsks(alternates, ['git log']);
    const own = await workspace(scratchDir('r2-own'), { 'a.txt': 'a\n' }, ['.']);
    await expectRuns(own, ['git status', 'git log -1', 'git diff --stat', 'cd . && git show HEAD --stat']);
  });

  it('test runners whose config search would climb out of the workspace run only in the sandbox, which hides the parents; started in node_modules, they ask', async () => {
    const root = scratchDir('r2-runners');
    fs.writeFileSync(path.join(root, 'package.json'), '{"scripts":{"test":"touch pwned"}}');
    fs.writeFileSync(path.join(root, 'conftest.py'), 'open("pwned", "w")\n');
    fs.writeFileSync(path.join(root, '.mocharc.yml'), 'require: ../evil.js\n');
    const ws = await workspace(path.join(root, 'sub'), {
      'test/a.test.js': '',
      'tests/test_a.py': '',
      'node_modules/dep/package.json': '{"scripts":{"test":"echo dep"}}',
    });
    const climbing = ['npm test', 'python3 -m pytest', 'npx --no-install mocha', 'npx --no-install jest', 'npx --no-install vitest run'];
    await expectRuns(ws, climbing);
    await expectAsks(ws, climbing, 'execute, sandbox off');
    await expectAsks(ws, ['cd node_modules/dep && npm test', 'jest -tc=../evil.config.js', "mocha '{test,../..}/*.js'"]);
    // Run for real in the sandbox: the parent's test script and conftest.py are out of its reach.
    const signal = new AbortController().signal;
    for (const command of ['npm test', 'python3 -m pytest'])
      await runTestsTool.execute({ command }, { workspace: ws, signal, fileVersions: {}, onProgress: () => {}, sandbox: 'test_run' });
    assert.deepEqual(
      ['pwned', 'sub/pwned'].filter((p) => fs.existsSync(path.join(root, p))),
      [],
      "the parent folder's script ran",
    );
    const rooted = await workspace(scratchDir('r2-rooted'), {
      'package.json': '{"scripts":{"test":"node --test"}}',
      '.mocharc.yml': 'spec: test\n',
      'pytest.ini': '[pytest]\n',
      'test/a.test.js': '',
      'node_modules/dep/package.json': '{}',
    });
    await expectRuns(rooted, ['npm test', 'python3 -m pytest', 'npx --no-install mocha', 'node --test', 'jest -t name']);
    await expectAsks(rooted, ['cd node_modules/dep && npm test', 'cd node_modules/dep && npx --no-install jest']);
  });

  it("run_tests adds none of run_command's git and npm settings (a suite reads its environment); its toolchain probe runs in the sandbox, read-only", async () => {
    const seen = new Map<string, ProcessOptions>();
    const ws = await workspace(scratchDir('r2-env'), { 'package.json': '{"scripts":{"test":"node --test"}}' });
    const spy: Workspace = {
      ...ws,
      runProcess: async (line, o) => {
        seen.set(line, o);
        return ws.runProcess('true', { ...o, sandbox: 'none' });
      },
    };
    await runTestsTool.execute({ command: 'npm test' }, { ...context(spy), sandbox: 'test_run' });
    // The toolchain probe starts the program the tests start: sandboxed too, read-only.
    assert.deepEqual(
      [...seen].map(([line, o]) => [line, o.sandbox]),
      [
        ['node --version', 'read_only'],
        ['npm test', 'test_run'],
      ],
    );
    for (const o of seen.values()) assert.deepEqual(o.env ?? {}, {});
  });
});

describe('policy: git runs unasked only when its repository names no program (issue 22 item 9)', function () {
  this.timeout(30_000);
  const hostile: [string, (root: string) => void][] = [
    ['core.fsmonitor', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[core]\n\tfsmonitor = touch pwned\n')],
    ['core.pager', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[core]\n\tpager = sh -c "touch pwned"\n')],
    ['diff.external', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[diff]\n\texternal = ./evil.sh\n')],
    ['a textconv driver', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[diff "x"]\n\ttextconv = ./evil.sh\n')],
    ['a filter driver', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[filter "x"]\n\tclean = ./evil.sh\n')],
    ['a credential helper', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[credential]\n\thelper = !./evil.sh\n')],
    [
      'a partial clone',
      (r) =>
        fs.appendFileSync(path.join(r, '.git/config'), '[remote "origin"]\n\tpromisor = true\n[extensions]\n\tpartialClone = origin\n'),
    ],
    ['a setting on the header line', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[core] fsmonitor = ./evil.sh\n')],
    ['an old-style subsection', (r) => fs.appendFileSync(path.join(r, '.git/config'), '[diff.x]\n\ttextconv = ./evil.sh\n')],
    [
      'an included file',
      (r) => {
        fs.writeFileSync(path.join(r, 'inc.cfg'), '[core]\n\tfsmonitor = ./evil.sh\n');
        fs.appendFileSync(path.join(r, '.git/config'), '[include]\n\tpath = ../inc.cfg\n');
      },
    ],
    [
      'an include outside the workspace',
      (r) => fs.appendFileSync(path.join(r, '.git/config'), '[includeIf "gitdir:/"]\n\tpath = ~/.evil\n'),
    ],
    ['a filter attribute', (r) => fs.writeFileSync(path.join(r, '.gitattributes'), '*.txt filter=lfs\n')],
    ['a custom diff driver attribute', (r) => fs.writeFileSync(path.join(r, 'sub/.gitattributes'), '*.png diff=exif\n')],
    ['info/attributes', (r) => fs.writeFileSync(path.join(r, '.git/info/attributes'), '* merge=ours-program\n')],
  ];

  for (const [what, plant] of hostile) {
    it(`asks when the repository has ${what}`, async () => {
      const root = scratchDir('gitcfg');
      const ws = await workspace(root, { 'a.txt': 'a\n', 'sub/b.txt': 'b\n' }, ['.']);
      await expectRuns(ws, ['git status']);
      fs.mkdirSync(path.join(root, '.git/info'), { recursive: true });
      plant(root);
      await expectAsks(ws, ['git status', 'git diff', 'git -C sub log -1', 'cd sub && git show HEAD']);
    });
  }

  it('runs in an ordinary repository: remotes, branches, user, builtin diff drivers', async () => {
    const root = scratchDir('gitcfg-ok');
    const ws = await workspace(root, { 'a.py': 'x\n', '.gitattributes': '*.py diff=python\n*.bin -diff binary\n' }, ['.']);
    fs.appendFileSync(
      path.join(root, '.git/config'),
      '[remote "origin"]\n\turl = https://example.invalid/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n' +
        '[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n[user]\n\tname = A # comment\n\temail = "a@b"\n[color "diff"]\n\tmeta = blue\n',
    );
    await expectRuns(ws, ['git status', 'git diff', 'git log -1', 'git branch -a']);
  });
});
