// Ends what a command left running — when the command ends, and also when Keel itself ends,
// even by SIGKILL, which no exit handler survives. For every command (inside the OS sandbox it
// covers the moment before bwrap has tied its pid namespace to Keel), a small keeper holds the read end of a pipe
// from Keel: when the pipe closes (Keel closed it, or the kernel did because Keel died) it kills
// the command's process group, then every process that still carries the command's marker
// variable (which a `setsid` or a double fork does not shed). The keeper starts before the
// command, so there is no moment when a started command has nobody watching it.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** The variable every process of an unsandboxed command inherits: `KEEL_COMMAND_ID=<random>`. */
const COMMAND_MARKER_VARIABLE = 'KEEL_COMMAND_ID';
/** Sweeps over /proc: a process forking while the sweep runs is found by the next one. */
const SWEEPS = 5;

/**
 * $1: the marker (`NAME=value`). The first line read is the process group; the keeper then waits
 * for end of file. grep -z -x -F matches one whole environment entry; -l prints the files.
 */
const KEEPER_SCRIPT = `
IFS= read -r group
while IFS= read -r _; do :; done
case "$group" in ''|*[!0-9]*) ;; *) kill -9 -"$group" 2>/dev/null ;; esac
i=0
while [ "$i" -lt ${SWEEPS} ]; do
  found=
  for f in $(grep -lzxF -- "$1" /proc/[0-9]*/environ 2>/dev/null); do
    p=\${f#/proc/}
    kill -9 "\${p%/environ}" 2>/dev/null && found=1
  done
  [ -n "$found" ] || break
  i=$((i + 1))
done
`;

export interface Keeper {
  /** The variable to add to the command's environment. */
  readonly marker: { name: string; value: string };
  /** Tells the keeper which process group the command is (its shell's pid). */
  watch(group: number | undefined): void;
  /** The command is over: the keeper ends whatever it left behind, then exits. */
  release(): void;
}

/** Starts a keeper; `sh` is the POSIX shell it runs in (never the user's $SHELL). */
export function startKeeper(sh = '/bin/sh'): Keeper {
  const value = randomBytes(12).toString('hex');
  const marker = { name: COMMAND_MARKER_VARIABLE, value };
  const child: ChildProcess = spawn(sh, ['-c', KEEPER_SCRIPT, 'keel-keeper', `${marker.name}=${value}`], {
    // Its own group and session: ending the command's group never ends the keeper.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: '/usr/bin:/bin' },
  });
  child.on('error', () => {});
  child.stdin?.on('error', () => {});
  // Neither the keeper nor its pipe keeps Keel alive: when Keel exits the pipe closes, which is the signal.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  let released = false;
  return {
    marker,
    watch(group) {
      if (group !== undefined && !released) child.stdin?.write(`${group}\n`);
    },
    release() {
      if (released) return;
      released = true;
      child.stdin?.end();
    },
  };
}
