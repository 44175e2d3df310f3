// The system calls the proof traces, by what they can do. trace-line.ts asks strace for all of
// them; judge.ts reads each kind in its own way.

export const EXECS = new Set(['execve', 'execveat']);
export const OPENS = new Set(['open', 'openat', 'openat2', 'creat']);
export const SOCKETS = new Set(['connect', 'bind', 'sendto', 'sendmsg', 'sendmmsg']);
export const SIGNALS = new Set(['kill', 'tkill', 'tgkill']);

/** Calls that change a file's name, content, mode, owner, times or attributes: any attempt counts. */
export const MUTATIONS = new Set([
  'unlink',
  'unlinkat',
  'rename',
  'renameat',
  'renameat2',
  'mkdir',
  'mkdirat',
  'rmdir',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'chmod',
  'fchmodat',
  'chown',
  'lchown',
  'fchownat',
  'truncate',
  'utimes',
  'utimensat',
  'mknod',
  'mknodat',
  'setxattr',
  'lsetxattr',
  'fsetxattr',
  'removexattr',
  'lremovexattr',
  'fremovexattr',
  // On any descriptor, even one opened only to read.
  'fchmod',
  'fchown',
  'ftruncate',
  'fallocate',
  'futimesat',
]);

/** Ways to reach files that the open and write checks cannot see (by handle; io_uring): any use counts. */
export const UNSEEN_FILE_ACCESS = new Set(['open_by_handle_at', 'io_uring_setup']);

/**
 * Calls that change the machine rather than a file. They are traced and also made to fail:
 * a line the classifier wrongly lets through must not set the clock or the host name of the
 * machine the tests run on. The attempt is still in the log, and judged.
 */
export const SYSTEM_CHANGES = [
  'settimeofday',
  'clock_settime',
  'clock_adjtime',
  'adjtimex',
  'sethostname',
  'setdomainname',
  'mount',
  'umount2',
  'swapon',
  'swapoff',
  'reboot',
  'init_module',
  'finit_module',
  'delete_module',
  'chroot',
  'pivot_root',
  'ptrace',
  'process_vm_writev',
];
export const SYSTEM = new Set(SYSTEM_CHANGES);

export const TRACED = [...EXECS, ...OPENS, ...SOCKETS, ...SIGNALS, ...MUTATIONS, ...UNSEEN_FILE_ACCESS, ...SYSTEM_CHANGES];
