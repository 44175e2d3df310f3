// The bubblewrap command line for one sandboxed command. Every namespace is new (user, pid,
// network, IPC, UTS, cgroup): no network but a loopback of its own, no process of the machine
// visible or signalled, no capability kept; the sandbox ends with Keel (--die-with-parent) and
// with its first process (the pid namespace's), so nothing it started outlives it. The file
// system is the machine view (machine-view.ts) plus the workspace: read-only for the read-only
// profile; for a test run writable but for its protected paths; secret files hidden in both.
import type { SandboxProfile } from '../../kernel/index.js';
import { COMMAND_MARKER_VARIABLE } from '../process-keeper.js';
import { homeMounts, privateMounts, systemMounts, tmpdirMounts } from './machine-view.js';
import type { ScanResult } from './workspace-scan.js';

/** The descriptor bwrap reports on: `{"child-pid": N}` once the command started. */
export const STATUS_FD = 3;

export interface BwrapCommand {
  /** The workspace root (absolute, real) and the folder the command starts in. */
  root: string;
  cwd: string;
  profile: Exclude<SandboxProfile, 'none'>;
  scan: ScanResult;
  env: Readonly<Record<string, string | undefined>>;
  /** The program and its arguments, run inside. */
  argv: readonly string[];
  /** Report on STATUS_FD (false for a starter that gives the child no such descriptor). */
  status?: boolean;
  /** What the project's toolchains need besides (toolchain-view.ts), mounted after the home folder and /tmp. */
  toolchains?: readonly string[];
}

const NAMESPACES = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];

export function bwrapArgs(c: BwrapCommand): string[] {
  const workspace = c.profile === 'read_only' ? ['--ro-bind', c.root, c.root] : ['--bind', c.root, c.root];
  // A link is not bound (bwrap would follow it, maybe out of the workspace): a run that replaces one gets it put back.
  const kept = [...c.scan.kept].filter(([, e]) => e.type !== 'link').flatMap(([p]) => ['--ro-bind', p, p]);
  // A write through a second name of a file would change it wherever else it is (a package store).
  const linked = c.scan.linked.flatMap((p) => ['--ro-bind', p, p]);
  // /dev/null bound without device access: opening it fails with EACCES, which says "hidden".
  const hidden = c.scan.hidden.flatMap((h) =>
    h.folder ? ['--tmpfs', h.path, '--remount-ro', h.path] : ['--ro-bind', '/dev/null', h.path],
  );
  return [
    ...NAMESPACES,
    ...systemMounts(),
    ...privateMounts(),
    ...homeMounts(c.env),
    ...tmpdirMounts(c.env, c.root),
    ...(c.toolchains ?? []),
    ...workspace,
    ...(c.profile === 'test_run' ? [...linked, ...kept] : []),
    ...hidden,
    '--chdir',
    c.cwd,
    ...(c.status === false ? [] : ['--json-status-fd', String(STATUS_FD)]),
    // The keeper finds bwrap (and a bwrap child not yet tied to it) by this variable; the command
    // inside never needs it: its pid namespace ends with bwrap.
    '--unsetenv',
    COMMAND_MARKER_VARIABLE,
    '--',
    ...c.argv,
  ];
}
