// Runs a command line with Keel's one shell (command-shell.ts) in its own process group,
// capturing bounded head/tail output. A timeout or an abort ends the whole group: SIGTERM,
// then SIGKILL.
import { spawn } from 'node:child_process';
import { type ProcessOptions, type ProcessResult, realTimers, type Timers, WorkspaceError } from '../kernel/index.js';
import { BoundedCapture } from './bounded-capture.js';
import { childSpawn, type EnvironmentRules } from './command-shell.js';

const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for output still in the pipes. */
const DRAIN_MS = 250;

export interface RunProcessExtras {
  /** What the child's environment withholds: held keys, credential-looking variables. */
  environment?: EnvironmentRules;
  /** Drive the timeout, the kill grace and the drain wait (tests move them by hand). */
  timers?: Timers;
}

export function runProcess(
  commandLine: string,
  cwdAbs: string,
  opts: ProcessOptions,
  extras: RunProcessExtras = {},
): Promise<ProcessResult> {
  const { environment = { held: [] }, timers = realTimers } = extras;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const how = childSpawn(commandLine, opts.env, environment);
    const child = spawn(how.file, how.args, {
      cwd: cwdAbs,
      detached: true,
      env: how.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = new BoundedCapture(opts.maxCaptureChars);
    const err = new BoundedCapture(opts.maxCaptureChars);
    const combined = new BoundedCapture(opts.maxCaptureChars);
    const state = { timedOut: false, cancelled: false, exit: null as number | null, signal: null as string | null, done: false };
    const pending: unknown[] = [];

    const endGroup = () => {
      killGroup(child.pid, 'SIGTERM');
      // Not cleared when the shell exits: a grandchild that ignores SIGTERM must still go.
      const kill = timers.setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      (kill as { unref?: () => void }).unref?.();
    };
    const onAbort = () => {
      state.cancelled = true;
      endGroup();
    };
    const finish = () => {
      if (state.done) return;
      state.done = true;
      for (const t of pending) timers.clearTimeout(t);
      opts.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({
        exitCode: state.exit,
        signal: state.signal,
        timedOut: state.timedOut,
        cancelled: state.cancelled,
        durationMs: Date.now() - started,
        stdout: out.result(),
        stderr: err.result(),
        combined: combined.result(),
      });
    };

    for (const [stream, capture, name] of [
      [child.stdout, out, 'stdout'],
      [child.stderr, err, 'stderr'],
    ] as const) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        capture.push(chunk);
        combined.push(chunk);
        opts.onOutput?.(chunk, name);
      });
    }
    child.on('error', (e) => {
      state.done = true;
      for (const t of pending) timers.clearTimeout(t);
      opts.signal.removeEventListener('abort', onAbort);
      reject(new WorkspaceError('io_error', `Could not start ${how.file}: ${e.message}`));
    });
    child.on('exit', (code, signal) => {
      [state.exit, state.signal] = [code, signal];
      // Background children may hold the pipes open; do not wait for them forever.
      pending.push(timers.setTimeout(finish, DRAIN_MS));
    });
    child.on('close', finish);
    pending.push(
      timers.setTimeout(() => {
        state.timedOut = true;
        endGroup();
      }, opts.timeoutMs),
    );
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
