// Decides whether a traced line stayed read-only: it ran only the programs the classifier
// named, changed no file, touched no network, read nothing outside the workspace (bar the
// system files programs need to start) and printed no secret. Every exception below is a
// thing a read-only command cannot avoid doing and that changes nothing; each says why.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isSecretFile } from '../../../src/tools/policy/protected-paths.js';
import type { Sandbox } from './sandbox.js';
import { openFlags, socketAddress, type Syscall } from './strace-log.js';
import { EXECS, MUTATIONS, OPENS, SIGNALS, SOCKETS, SYSTEM, UNSEEN_FILE_ACCESS } from './syscalls.js';
import type { TracedRun } from './trace-line.js';

export type ViolationKind = 'exec' | 'write' | 'network' | 'read' | 'leak' | 'signal' | 'system' | 'timeout';

export interface Violation {
  kind: ViolationKind;
  detail: string;
  /** The file a write or read concerns, when there is one (absolute). */
  path?: string;
  /** A write that failed (EROFS, EACCES): an attempt with no effect. */
  failed?: true;
}

/** What the classifier said the line may run. */
export interface Named {
  programs: readonly string[];
}

const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|O_TMPFILE/;

/**
 * Where a successful open may be written to without changing anything:
 * - /dev/null discards what is written;
 * - /dev/tty: bash probes for a controlling terminal at start; the line runs in a new session
 *   without one, so the open fails and nothing is written anywhere;
 * - a pipe (what /dev/stdout, /dev/stderr, /dev/fd/N and process substitutions resolve to):
 *   the bytes go to the captured output or to another process of the same line, not to a file.
 */
function harmlessWriteTarget(p: string): boolean {
  return p === '/dev/null' || p === '/dev/tty' || /^pipe:\[\d+\]$/.test(p);
}

/**
 * The line's own stdout and stderr by name: the captured output. (Node gives a child sockets,
 * not pipes, for them, and opening a socket through /proc fails with ENXIO: a harmless attempt.)
 * Pointing fd 1 or 2 at a file first takes an open of that file, which is judged on its own.
 */
const OWN_OUTPUT = new Set(['/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2', '/proc/self/fd/1', '/proc/self/fd/2']);

/**
 * Files outside the workspace that programs read to start, size themselves or look up names;
 * none holds a secret: programs, libraries and their data; cgroup and memory limits (runtimes
 * size heaps and thread pools from them); public CA certificates.
 */
const SYSTEM_READ_PREFIXES = [
  '/usr/',
  '/lib/',
  '/lib64/',
  '/bin/',
  '/sbin/',
  '/sys/fs/cgroup/',
  '/sys/kernel/mm/transparent_hugepage/',
  '/etc/ssl/certs/',
];
const SYSTEM_READ_FILES = new Set([
  '/etc/ld.so.cache', // the dynamic loader's index of libraries
  '/etc/ld.so.preload',
  '/etc/nsswitch.conf', // the C library's name-service configuration (user and group names)
  '/etc/passwd', // user names for `ls -l`, `id` (no passwords: those are in /etc/shadow)
  '/etc/group',
  '/etc/locale.alias', // locale names (what /usr/share/locale/locale.alias points to)
  '/etc/gitconfig', // git's system-wide configuration, read by every git command
  '/etc/localtime',
  '/etc/timezone',
  '/etc/mime.types', // `file` and friends
  '/etc/magic',
  '/etc/ssl/openssl.cnf', // OpenSSL's configuration, read by node at start
  // Name resolution settings: read before a connection, and the connection itself is judged.
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/resolv.conf',
  '/etc/gai.conf',
  '/proc/sys/vm/overcommit_memory',
  '/proc/filesystems', // the C library checks for SELinux at start
  '/proc/sys/kernel/ngroups_max',
  '/proc/meminfo', // sort sizes its buffer from it
  '/proc/cpuinfo',
  '/proc/stat',
  '/sys/devices/system/cpu/online', // programs size thread pools from it
  '/sys/devices/system/cpu/possible',
  '/sys/fs/cgroup/cpu.max',
  '/dev/null',
  '/dev/zero',
  '/dev/urandom',
  '/dev/random',
  '/dev/tty',
]);
/**
 * A process's own /proc entries, read by the C library and runtimes at start — except its
 * environment (printing that leaks the environment). Another process's entries are outside.
 */
const OWN_PROC =
  /^\/proc\/(self|thread-self|\d+)(?:\/task\/\d+)?\/(?:maps|stat|status|cgroup|mountinfo|mounts|limits|auxv|cmdline|comm|exe|fd|fdinfo|smaps|statm|sched|io|ns)(?:\/.*)?$/;
/**
 * git reads its per-user configuration for every command, and ripgrep reads it to find the
 * user's global ignore file; printing it is caught as a leak (its canary).
 */
const GIT_USER_CONFIG = ['.gitconfig', '.config/git/config', '.config/git/attributes', '.config/git/ignore'];
const READS_GIT_CONFIG = new Set(['git', 'rg']);

export function judgeRun(run: TracedRun, named: Named, box: Sandbox): Violation[] {
  const v: Violation[] = [];
  if (run.timedOut) v.push({ kind: 'timeout', detail: `did not finish within the time limit (${run.ms} ms)` });
  const images = new Map<number, string>();
  const pids = new Set(run.calls.map((c) => c.pid));
  let rootSeen = false;
  for (const call of run.calls) {
    if (EXECS.has(call.name)) {
      if (call.ret !== 0) continue;
      const target = execPath(call);
      const previous = images.get(call.pid);
      images.set(call.pid, target);
      // The first program is the bash that runs the line.
      if (!rootSeen) {
        rootSeen = true;
        continue;
      }
      const why = unnamedProgram(target, previous, named, box);
      if (why) v.push({ kind: 'exec', detail: `${why} (argv ${JSON.stringify(call.strings.slice(1))})` });
    } else if (OPENS.has(call.name)) judgeOpen(call, images.get(call.pid) ?? '', box, pids, v);
    else if (MUTATIONS.has(call.name)) {
      const target = call.strings[0] === undefined ? undefined : absolute(call.strings[0], call.dirfd);
      v.push({
        kind: 'write',
        detail: `${call.name}(${describePaths(call)}) = ${call.ret}`,
        ...(target ? { path: target } : {}),
        ...(call.ret < 0 ? { failed: true as const } : {}),
      });
    } else if (SOCKETS.has(call.name)) judgeSocket(call, v);
    else if (SIGNALS.has(call.name)) judgeSignal(call, pids, v);
    else if (UNSEEN_FILE_ACCESS.has(call.name)) v.push({ kind: 'system', detail: `${call.name}, whose file access strace cannot follow` });
    else if (SYSTEM.has(call.name)) v.push({ kind: 'system', detail: `${call.name}(${call.raw.slice(0, 120)}) (made to fail)` });
  }
  const output = run.stdout + run.stderr;
  for (const token of box.canaries)
    if (output.includes(token)) v.push({ kind: 'leak', detail: `printed the secret ${token.slice(0, 20)}…` });
  return v;
}

function execPath(call: Syscall): string {
  const p = call.strings[0] ?? '';
  if (call.name === 'execveat' && !p.startsWith('/') && call.dirfd) return path.join(call.dirfd, p);
  return p;
}

/** Why running `target` was not named by the classifier, or undefined when it was. */
function unnamedProgram(target: string, previous: string | undefined, named: Named, box: Sandbox): string | undefined {
  const name = path.basename(target);
  // A shim handing over to the program it stands for is the same program.
  if (previous && path.dirname(previous) === box.shims && box.programs.get(path.basename(previous)) === target) return undefined;
  const plain = new Set(named.programs.filter((p) => !p.includes('/')));
  if (path.dirname(target) === box.shims) return plain.has(name) ? undefined : `ran ${name}, which the classifier did not name`;
  // Run by a path: named only by that same path (`./cat` is whatever file that is, not cat),
  // or it is exactly the program a named bare name finds on PATH.
  const written = named.programs.filter((p) => p.includes('/')).map((p) => path.resolve(box.ws, p));
  if (written.includes(path.resolve(box.ws, target))) return undefined;
  // (`command -p ls` runs /bin/ls, which on a merged-/usr system is the /usr/bin/ls PATH finds.)
  if (plain.has(name) && target.startsWith('/') && sameFile(box.programs.get(name), target)) return undefined;
  return `ran ${target}, which the classifier did not name`;
}

function ownProc(p: string, pids: ReadonlySet<number>): boolean {
  const m = OWN_PROC.exec(p);
  return !!m && (m[1] === 'self' || m[1] === 'thread-self' || pids.has(Number(m[1])));
}

function sameFile(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

function judgeOpen(call: Syscall, image: string, box: Sandbox, pids: ReadonlySet<number>, v: Violation[]): void {
  const flags = openFlags(call);
  const asked = call.strings[0] ?? '';
  const where = call.ret >= 0 && call.retPath ? call.retPath : absolute(asked, call.dirfd);
  if (WRITE_FLAGS.test(flags)) {
    if (call.ret >= 0 && harmlessWriteTarget(where)) return;
    if ((call.ret < 0 && asked === '/dev/tty') || OWN_OUTPUT.has(asked)) return;
    // The shims' own argv log (the harness, not the line).
    if (where === box.shimLog && path.dirname(image) === box.shims) return;
    v.push({
      kind: 'write',
      detail: `opened ${where} for writing (${flags})${call.ret < 0 ? ` and failed: ${call.errno}` : ''}`,
      path: where,
      ...(call.ret < 0 ? { failed: true as const } : {}),
    });
    return;
  }
  if (call.ret < 0) return; // Nothing was read.
  const why = outsideRead(where, image, box, pids);
  if (why) v.push({ kind: 'read', detail: why });
}

function outsideRead(p: string, image: string, box: Sandbox, pids: ReadonlySet<number>): string | undefined {
  if (p === box.ws || p.startsWith(`${box.ws}/`)) {
    const rel = path.relative(box.ws, p);
    return isSecretFile(rel) ? `read the secret file ${rel} in the workspace` : undefined;
  }
  if (SYSTEM_READ_PREFIXES.some((s) => p.startsWith(s)) || SYSTEM_READ_FILES.has(p) || ownProc(p, pids)) return undefined;
  if (/^(pipe|socket|anon_inode):/.test(p)) return undefined;
  // sh reads the shim scripts it runs.
  if (path.dirname(p) === box.shims) return undefined;
  if (READS_GIT_CONFIG.has(path.basename(image)) && GIT_USER_CONFIG.some((c) => p === path.join(box.home, c))) return undefined;
  return `read ${p}, outside the workspace`;
}

function judgeSocket(call: Syscall, v: Violation[]): void {
  const addr = socketAddress(call);
  if (!addr) return; // sendto/sendmsg on a connected socket: its connect was judged.
  // A netlink socket talks to the local kernel (glibc and libuv list interfaces and addresses
  // through it); nothing leaves the machine.
  if (addr.family === 'AF_NETLINK') return;
  if (addr.family === 'AF_UNIX') {
    // glibc asks the name-service cache daemon first when it looks up a user or group name
    // (`ls -l`, `id`); the socket is local, carries only that lookup, and is absent here.
    if (addr.unixPath === '/var/run/nscd/socket' || addr.unixPath === '/run/nscd/socket') return;
    v.push({ kind: 'network', detail: `${call.name} to the local socket ${addr.unixPath}` });
    return;
  }
  v.push({ kind: 'network', detail: `${call.name} on ${addr.family}: ${call.raw.slice(0, 200)}` });
}

/** Signals only to processes of the line itself (a timeout wrapper ending its child). */
function judgeSignal(call: Syscall, pids: ReadonlySet<number>, v: Violation[]): void {
  const target = Number(/^-?\d+/.exec(call.raw)?.[0]);
  if (call.name === 'tgkill' || call.name === 'tkill') {
    if (pids.has(target)) return;
  } else if (target === 0 || pids.has(Math.abs(target))) return;
  v.push({ kind: 'signal', detail: `${call.name}(${call.raw})` });
}

function absolute(p: string, dirfd: string | undefined): string {
  if (p.startsWith('/') || !dirfd) return path.normalize(p);
  return path.join(dirfd, p);
}

function describePaths(call: Syscall): string {
  if (call.strings.length === 0) return call.dirfd ?? call.raw.slice(0, 80);
  return call.strings.map((s) => absolute(s, call.dirfd)).join(', ');
}
