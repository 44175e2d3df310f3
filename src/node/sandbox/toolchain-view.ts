// What each toolchain needs of the machine inside the sandbox, beyond the machine view's system
// folders and home toolchains (machine-view.ts):
// - the installs and pinned versions the package managers and version managers keep in the home
//   folder (pnpm's, corepack's, uv's interpreters, Poetry's and pipenv's environments), and the
//   ones environment variables move elsewhere (GOROOT, GOMODCACHE, CARGO_HOME, RUSTUP_HOME…),
//   read-only;
// - caches a test run writes (Go's build cache, jest's, pip's and uv's, a cargo target folder set
//   outside the workspace), at the paths the tools use, each bound to a folder of Keel's own cache
//   kept for this workspace between runs — never the user's own caches, which the commands the user
//   approves run from: what a sandboxed run writes there reaches only later sandboxed runs;
// - npm's and yarn's user settings without their credentials, as files Keel writes;
// - dependency folders the workspace links to outside it (a node_modules or .venv that is a link,
//   a monorepo's hoisted node_modules in a parent folder), read-only at their place; a link in
//   node_modules to anything else (a package `npm link`ed from another project) stays hidden, and
//   the command's result says so.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeModulesLinks } from './node-modules-links.js';
import { TSC_CACHE_FOLDER } from '../problems/tsc-checker.js';
import { redactedNpmrc, redactedYarnrc } from './user-settings.js';

export interface ToolchainView {
  /** bwrap arguments, after the home folder and /tmp are made. */
  args: string[];
  /** What the sandbox hid that the command may have looked for, for its result. */
  notices: string[];
}

/** Installs and pinned versions under the home folder, shown read-only when they exist. */
const HOME_INSTALLS = [
  '.local/share/pnpm',
  '.cache/node/corepack',
  '.local/share/uv/python',
  '.local/share/uv/tools',
  '.cache/pypoetry/virtualenvs',
  '.local/share/virtualenvs',
];

/** Variables that move an install elsewhere, and the parts of it a test run reads. */
const INSTALL_VARIABLES: Record<string, readonly string[]> = {
  GOROOT: [''],
  GOMODCACHE: [''],
  GOPATH: ['pkg/mod', 'bin'],
  CARGO_HOME: ['bin', 'registry', 'git'],
  RUSTUP_HOME: [''],
  PNPM_HOME: [''],
  COREPACK_HOME: [''],
  NVM_DIR: [''],
  PYENV_ROOT: [''],
  VOLTA_HOME: [''],
};

type Env = Readonly<Record<string, string | undefined>>;

/** Where a host keeps the sandbox's caches: $XDG_CACHE_HOME/keel/sandbox, else ~/.cache/keel/sandbox. */
export function keelSandboxCacheDir(env: Env, home: string): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(base, 'keel', 'sandbox');
}

export interface ToolchainViewOptions {
  /** The workspace root (absolute, real). */
  root: string;
  env: Env;
  /** Keel's folder for this machine's sandbox caches ($XDG_CACHE_HOME/keel/sandbox); absent: no caches are kept. */
  cacheDir?: string | undefined;
}

export function toolchainView(o: ToolchainViewOptions): ToolchainView {
  const home = homeOf(o.env);
  const args: string[] = [];
  const notices: string[] = [];
  const show = (p: string) => args.push(...readOnly(p, o.root));
  if (home) for (const rel of HOME_INSTALLS) show(path.join(home, rel));
  for (const [name, parts] of Object.entries(INSTALL_VARIABLES)) {
    const at = o.env[name];
    if (at && path.isAbsolute(at)) for (const part of parts) show(path.join(at, part));
  }
  const projectCache = o.cacheDir && !within(o.cacheDir, o.root) && !within(o.root, o.cacheDir) ? ownCache(o.cacheDir, o.root) : undefined;
  if (projectCache) {
    for (const c of caches(o.root, o.env, home)) args.push(...writable(path.join(projectCache, c.name), c.at));
    if (home) args.push(...settings(projectCache, home));
  }
  for (const target of pathLinkTargets(o.env)) show(target);
  const links = linkedDependencies(o.root);
  for (const target of links.shown) show(target);
  notices.push(...links.hidden.map((h) => `The sandbox hid ${h.link}: a link to ${h.target}, outside the workspace.`));
  return { args, notices };
}

function homeOf(env: Env): string | undefined {
  const home = env.HOME;
  return home && path.isAbsolute(home) && path.resolve(home) !== '/' ? path.resolve(home) : undefined;
}

/** This workspace's folder in Keel's cache, made private to the user. */
function ownCache(cacheDir: string, root: string): string | undefined {
  const dir = path.join(cacheDir, createHash('sha256').update(root).digest('hex').slice(0, 16));
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A folder that is not a plain folder of ours (a link planted there) is not used.
    const st = fs.lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() ? dir : undefined;
  } catch {
    return undefined;
  }
}

interface Cache {
  name: string;
  /** Where the tool looks for it inside the sandbox. */
  at: string;
}

/** The caches the workspace's toolchains write, where each tool puts it by default or by its variable. */
function caches(root: string, env: Env, home: string | undefined): Cache[] {
  const has = (name: string) => fs.existsSync(path.join(root, name));
  const userCache = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home && path.join(home, '.cache');
  const under = (variable: string, name: string) => {
    const set = env[variable];
    if (set && path.isAbsolute(set)) return set;
    return userCache ? path.join(userCache, name) : undefined;
  };
  const out: (Cache | undefined)[] = [];
  if (has('go.mod') || has('go.work')) out.push(at('go-build', under('GOCACHE', 'go-build')));
  // tsc's build info for the problems after an edit (src/node/problems/tsc-checker.ts), kept between checks.
  if (has('tsconfig.json')) out.push(at('tsc', path.join(tmpInside(env), TSC_CACHE_FOLDER)));
  if (has('package.json')) out.push(at('jest', path.join(tmpInside(env), `jest_${(process.getuid?.() ?? 0).toString(36)}`)));
  if (['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'uv.lock', 'Pipfile', 'poetry.lock'].some(has)) {
    out.push(at('pip', under('PIP_CACHE_DIR', 'pip')), at('uv', under('UV_CACHE_DIR', 'uv')));
  }
  const target = env.CARGO_TARGET_DIR;
  if (has('Cargo.toml') && target && path.isAbsolute(target) && !within(target, root)) out.push(at('cargo-target', target));
  return out.filter((c): c is Cache => c !== undefined && !within(c.at, root));
}

const at = (name: string, where: string | undefined): Cache | undefined => (where ? { name, at: path.resolve(where) } : undefined);

function tmpInside(env: Env): string {
  const t = env.TMPDIR;
  return t && path.isAbsolute(t) ? path.resolve(t) : '/tmp';
}

/** npm's and yarn's user settings, their credentials left out, as read-only files at their places. */
function settings(projectCache: string, home: string): string[] {
  const out: string[] = [];
  for (const [file, redact] of [
    ['.npmrc', redactedNpmrc],
    ['.yarnrc.yml', redactedYarnrc],
  ] as const) {
    const text = readSmall(path.join(home, file));
    if (text === undefined) continue;
    const copy = path.join(projectCache, `user${file}`);
    if (writeIfChanged(copy, redact(text))) out.push('--ro-bind', copy, path.join(home, file));
  }
  return out;
}

function readSmall(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return st.isFile() && st.size < 256 * 1024 ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function writeIfChanged(file: string, text: string): boolean {
  try {
    if (readSmall(file) === text) return true;
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, text, { mode: 0o600 });
    fs.renameSync(temp, file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The installs the programs on PATH link into: npm's global `prefix/bin/pnpm` is a link to
 * `prefix/lib/node_modules/pnpm/…`, a project's `node_modules/.bin/x` to `node_modules/x/…`. The
 * machine view shows the PATH folder; the folder beside it that a link leads into is shown too.
 */
function pathLinkTargets(env: Env): string[] {
  const out = new Set<string>();
  for (const dir of (env.PATH ?? '').split(':')) {
    if (!path.isAbsolute(dir) || SYSTEM.some((s) => within(dir, s))) continue;
    const parent = path.dirname(path.resolve(dir));
    // A node_modules/.bin (npm run puts one on PATH): its links lead into the node_modules around it.
    if (path.basename(dir) === '.bin' && path.basename(parent) === 'node_modules') {
      out.add(parent);
      continue;
    }
    for (const e of safeList(dir).slice(0, MAX_PATH_ENTRIES)) {
      if (!e.isSymbolicLink()) continue;
      let real: string;
      try {
        real = fs.realpathSync(path.join(dir, e.name));
      } catch {
        continue;
      }
      const rel = path.relative(parent, real);
      if (rel.startsWith('..') || path.isAbsolute(rel) || within(real, path.resolve(dir))) continue;
      out.add(path.join(parent, rel.split(path.sep)[0]!));
    }
  }
  return [...out];
}

/** Folders the machine view shows whole already; a PATH folder in them needs nothing more. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/opt', '/nix'];
/** Entries of one PATH folder looked at, at most. */
const MAX_PATH_ENTRIES = 2000;

/** Dependency folders outside the workspace that its node_modules or .venv lead to. */
function linkedDependencies(root: string): { shown: string[]; hidden: { link: string; target: string }[] } {
  const shown: string[] = [];
  const hidden: { link: string; target: string }[] = [];
  const consider = (rel: string, isDependencyFolder: (real: string) => boolean) => {
    const abs = path.join(root, rel);
    const st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isSymbolicLink()) return;
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      return;
    }
    if (within(real, root)) return;
    if (isDependencyFolder(real)) shown.push(real);
    else hidden.push({ link: rel, target: real });
  };
  consider('node_modules', () => true);
  for (const venv of ['.venv', 'venv']) consider(venv, (real) => fs.existsSync(path.join(real, 'pyvenv.cfg')));
  for (const rel of nodeModulesLinks(root)) consider(rel, (real) => real.split(path.sep).includes('node_modules'));
  // A package of a monorepo: node resolves its dependencies from every parent's node_modules.
  for (let dir = path.dirname(root); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const nm = path.join(dir, 'node_modules');
    if (fs.statSync(nm, { throwIfNoEntry: false })?.isDirectory()) shown.push(fs.realpathSync(nm));
  }
  return { shown, hidden };
}

function safeList(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** A folder shown read-only at its real place (a link to it recreated), unless it holds the workspace. */
function readOnly(p: string, root: string): string[] {
  let real: string;
  try {
    real = fs.realpathSync(p);
  } catch {
    return [];
  }
  if (within(root, real)) return [];
  const args = ['--ro-bind', real, real];
  return real === path.resolve(p) ? args : [...args, '--symlink', real, path.resolve(p)];
}

/** Keel's folder `own`, writable at `where` inside the sandbox. */
function writable(own: string, where: string): string[] {
  try {
    fs.mkdirSync(own, { recursive: true, mode: 0o700 });
  } catch {
    return [];
  }
  return ['--bind', own, where];
}

function within(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
