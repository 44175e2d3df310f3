// What of the machine a sandboxed command sees besides the workspace: bubblewrap starts from an
// empty root, and this lists what is put in it, read-only. Allowed by listing what is safe:
// - the system folders programs and libraries live in (/usr, /bin, /lib…, /etc, /opt), with
//   every entry of /etc that not every user of the machine may read hidden (shadow passwords,
//   host keys, sudoers…): a system file the sandbox shows is one any user could read anyway;
// - an empty, private home folder at $HOME, with the toolchains users install under it (version
//   managers, language homes) and the folders on PATH put back in it, read-only — never the
//   home's dotfiles, keys, caches or other projects;
// - a private /tmp, /dev with the usual devices and a /proc of the command's own processes.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Top-level system folders shown read-only (a symbolic link, as on merged-/usr systems, is recreated as one). */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/nix'];
/** Read by runtimes to size thread pools and heaps (node, the JVM, Go). */
const SYSTEM_INFO = ['/sys/fs/cgroup', '/sys/devices/system/cpu'];
/**
 * Toolchains installed in a home folder (relative to it): programs, libraries and package
 * caches, never the parts that hold credentials (~/.cargo/credentials.toml, ~/.m2/settings.xml,
 * ~/.gradle/gradle.properties, ~/.npmrc, ~/.gem/credentials stay hidden).
 */
const HOME_TOOLCHAINS = [
  '.nvm',
  '.volta',
  '.fnm',
  '.local/share/fnm',
  '.bun/bin',
  '.deno/bin',
  '.pyenv',
  '.local/bin',
  '.local/lib',
  '.local/share/pipx',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.rustup',
  'go/bin',
  'go/pkg',
  'sdk',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.sdkman/candidates',
  '.jenv',
  '.rbenv',
  '.asdf',
  '.tool-versions',
  '.local/share/mise/installs',
  '.elan',
  '.ghcup/bin',
  '.nix-profile',
];

let systemCache: string[] | undefined;

/** bwrap arguments for the system folders, /etc's private entries hidden (computed once per process). */
export function systemMounts(): string[] {
  systemCache ??= [...SYSTEM_FOLDERS.flatMap(showFolder), ...hiddenUnder('/etc'), ...SYSTEM_INFO.flatMap((p) => ['--ro-bind-try', p, p])];
  return systemCache;
}

/** A private, empty /tmp, the usual devices and a /proc of the sandbox's own processes. */
export function privateMounts(): string[] {
  return ['--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
}

/**
 * The temporary folder the user's TMPDIR names, private and empty like /tmp, so a command sees
 * the variable as the user set it and the folder exists (a path under a system folder only when
 * it is there to mount on; never the workspace or a folder holding it).
 */
export function tmpdirMounts(env: Readonly<Record<string, string | undefined>>, root: string): string[] {
  const dir = env.TMPDIR;
  if (!dir || !path.isAbsolute(dir)) return [];
  const abs = path.resolve(dir);
  if (abs === '/' || abs === '/tmp' || isWithin(abs, root) !== 'outside' || isWithin(root, abs) !== 'outside') return [];
  if (isSystemPath(abs) && !fs.existsSync(abs)) return [];
  return ['--tmpfs', abs];
}

/** An empty home at $HOME (when it is a folder of its own), with the toolchains and PATH folders shown read-only. */
export function homeMounts(env: Readonly<Record<string, string | undefined>>): string[] {
  const home = env.HOME;
  const args: string[] = [];
  const ownHome = home !== undefined && path.isAbsolute(home) && !isSystemPath(home) && path.resolve(home) !== '/';
  if (ownHome) {
    args.push('--tmpfs', path.resolve(home));
    for (const rel of HOME_TOOLCHAINS) args.push(...showExisting(path.join(home, rel)));
  }
  for (const dir of (env.PATH ?? '').split(':')) {
    // Never a folder that holds the home (PATH=/home:… would show every user's files).
    if (!path.isAbsolute(dir) || isSystemPath(dir) || (home !== undefined && isWithin(dir, home) !== 'outside')) continue;
    args.push(...showExisting(dir));
  }
  return args;
}

function showFolder(p: string): string[] {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return [];
  if (st.isSymbolicLink()) return ['--symlink', fs.readlinkSync(p), p];
  return st.isDirectory() ? ['--ro-bind', p, p] : [];
}

/** A folder or file outside the system folders, shown read-only at its real place. */
function showExisting(p: string): string[] {
  let real: string;
  try {
    real = fs.realpathSync(p);
  } catch {
    return [];
  }
  // A toolchain that is a link into the system folders (a Nix profile) is shown there already.
  if (isSystemPath(real) && real === path.resolve(p)) return [];
  const args = ['--ro-bind', real, real];
  return real === path.resolve(p) ? args : [...args, '--symlink', real, path.resolve(p)];
}

function isSystemPath(p: string): boolean {
  const abs = path.resolve(p);
  return SYSTEM_FOLDERS.some((s) => isWithin(s, abs) !== 'outside');
}

function isWithin(parent: string, child: string): 'same' | 'inside' | 'outside' {
  const rel = path.relative(parent, path.resolve(child));
  if (rel === '') return 'same';
  return rel.startsWith('..') || path.isAbsolute(rel) ? 'outside' : 'inside';
}

/**
 * Every entry under `root` that not every user may read (a file without the world-read bit, a
 * folder without world read and search), covered: a folder by an empty read-only tmpfs, a file
 * by /dev/null mounted without device access (opening it fails with EACCES). Folders hidden are
 * not entered.
 */
function hiddenUnder(root: string): string[] {
  const args: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      const st = fs.lstatSync(p, { throwIfNoEntry: false });
      if (!st || st.isSymbolicLink()) continue;
      const open = st.isDirectory() ? (st.mode & 0o005) === 0o005 : (st.mode & 0o004) !== 0;
      if (!open) args.push(...(st.isDirectory() ? ['--tmpfs', p, '--remount-ro', p] : ['--ro-bind', '/dev/null', p]));
      else if (st.isDirectory()) walk(p);
    }
  };
  if (fs.existsSync(root)) walk(root);
  return args;
}
