// Descriptors Keel inherited from whatever started it (a shell's `exec 5</home/me`, an editor's
// pipes) that lack close-on-exec: the kernel passes them to every program Keel starts, bwrap
// passes them into the sandbox, and there a descriptor open on a folder outside reaches it
// (/proc/self/fd/N/.ssh/id_rsa) whatever is mounted. Node opens its own with O_CLOEXEC, so the
// set is fixed at start; it is read once, and a sandboxed command is started through a shell
// that closes them first. With none (the usual case) nothing is added.
import * as fs from 'node:fs';

const O_CLOEXEC = 0o2000000;
/** Past stdin, stdout and stderr (bwrap's status pipe, when it has one, is put at 3 by the spawn). */
const FIRST_FREE = 3;

let inherited: number[] | undefined;

/** Keel's descriptors (at and above 3) that a program it starts would inherit. */
export function inheritedDescriptors(): number[] {
  inherited ??= readInherited();
  return inherited;
}

/** `file args…` started so that it gets none of `fds`. */
export function withoutDescriptors(file: string, args: readonly string[], fds: readonly number[]): { file: string; args: string[] } {
  if (fds.length === 0) return { file, args: [...args] };
  // dash reads only descriptors 0–9 in a redirection; bash reads any.
  const shell = fds.some((fd) => fd > 9) ? '/bin/bash' : '/bin/sh';
  const closing = fds.map((fd) => `${fd}<&-`).join(' ');
  return { file: shell, args: ['-c', `exec ${closing} "$@"`, 'keel-sandbox', file, ...args] };
}

function readInherited(): number[] {
  let fds: number[];
  try {
    fds = fs
      .readdirSync('/proc/self/fd')
      .map(Number)
      .filter((fd) => fd >= FIRST_FREE);
  } catch {
    return [];
  }
  return fds.filter((fd) => !closeOnExec(fd)).sort((a, b) => a - b);
}

function closeOnExec(fd: number): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
    return flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) !== 0;
  } catch {
    // Gone since the folder was read (the readdir's own descriptor): nothing to close.
    return true;
  }
}
