// Runs a command line with Keel's one shell (command-shell.ts) in its own process group,
// capturing bounded head/tail output. A timeout or an abort ends the whole group: SIGTERM,
// then SIGKILL. How it starts depends on the sandbox profile the policy chose: inside the OS
// sandbox (sandbox/), whose pid namespace ends with the command and with Keel; or as the user
// approved it. Either way a keeper (process-keeper.ts) watches it and ends what it left when it
// ends or when Keel does, so nothing a command started outlives it.
import { spawn } from 'node:child_process';
import { type ProcessOptions, type ProcessResult, realTimers, type Timers, WorkspaceError } from '../kernel/index.js';
import { BoundedCapture } from './bounded-capture.js';
import { type ChildSpawn, childSpawn, type EnvironmentRules } from './command-shell.js';
import { startKeeper, type Keeper } from './process-keeper.js';
import { STATUS_FD } from './sandbox/bwrap-args.js';
import type { AfterRun, NodeSandbox, SandboxLaunch } from './sandbox/node-sandbox.js';

const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for output still in the pipes. */
const DRAIN_MS = 250;
/**
 * bwrap reports `"exit-code"` on its status descriptor once the command it started has ended:
 * its absence after bwrap exits means the sandbox never started the command.
 */
const EXITED = '"exit-code"';
/** How long to wait, after bwrap exits, for the rest of its status report. */
const STATUS_WAIT_MS = 5000;

export interface RunProcessExtras {
  /** What the child's environment withholds: held keys, credential-looking variables. */
  environment?: EnvironmentRules;
  /** Drive the timeout, the kill grace and the drain wait (tests move them by hand). */
  timers?: Timers;
  /** The OS sandbox for the sandboxed profiles; without it such a command is refused, never run unsandboxed. */
  sandbox?: NodeSandbox;
}

/** How the child is started: the program, its arguments and environment, and what watches it. */
interface Start {
  file: string;
  args: string[];
  env: Record<string, string>;
  keeper?: Keeper;
  sandboxed?: SandboxLaunch;
}

export async function runProcess(
  commandLine: string,
  cwdAbs: string,
  opts: ProcessOptions,
  extras: RunProcessExtras = {},
): Promise<ProcessResult> {
  const { environment = { held: [] }, timers = realTimers } = extras;
  const how = childSpawn(commandLine, opts.env, environment);
  return run(startFor(how, cwdAbs, opts, extras.sandbox), cwdAbs, opts, timers, extras.sandbox);
}

function startFor(how: ChildSpawn, cwdAbs: string, opts: ProcessOptions, sandbox: NodeSandbox | undefined): Start {
  const profile = opts.sandbox ?? 'none';
  if (profile === 'none') {
    const keeper = startKeeper();
    return { file: how.file, args: how.args, env: { ...how.env, [keeper.marker.name]: keeper.marker.value }, keeper };
  }
  const status = sandbox?.status();
  if (!sandbox || status?.type !== 'ready') {
    const why = status?.type === 'unavailable' ? status.reason : 'this host runs no sandbox';
    throw new WorkspaceError('io_error', `This command was to run in the sandbox, which is not available (${why}); it was not run.`);
  }
  // The pid namespace ends with bwrap, and bwrap with Keel — once bwrap has asked for that. A
  // keeper covers the moment before: a Keel killed while bwrap starts would leave it running.
  const keeper = startKeeper();
  const env = { ...how.env, [keeper.marker.name]: keeper.marker.value };
  try {
    const launch = sandbox.launch([how.file, ...how.args], cwdAbs, profile, env);
    return { file: launch.file, args: launch.args, env, keeper, sandboxed: launch };
  } catch (err) {
    keeper.release();
    throw new WorkspaceError('io_error', `The sandbox could not be prepared (${(err as Error).message}); the command was not run.`);
  }
}

function run(start: Start, cwdAbs: string, opts: ProcessOptions, timers: Timers, sandbox: NodeSandbox | undefined): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(start.file, start.args, {
      cwd: cwdAbs,
      detached: true,
      env: start.env,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(start.sandboxed ? (['pipe'] as const) : [])],
    });
    start.keeper?.watch(child.pid);
    // A child that exits without reading its input must not fail the run (EPIPE).
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.stdin);
    const out = new BoundedCapture(opts.maxCaptureChars);
    const err = new BoundedCapture(opts.maxCaptureChars);
    const combined = new BoundedCapture(opts.maxCaptureChars);
    const state = { timedOut: false, cancelled: false, exit: null as number | null, signal: null as string | null, done: false };
    let status = '';
    const statusPipe = child.stdio[STATUS_FD];
    statusPipe?.on('data', (d: Buffer) => (status += d.toString()));
    // bwrap writes its last status line just before it exits: read to the end before judging it.
    const statusRead = statusPipe ? new Promise<void>((r) => statusPipe.once('close', () => r())) : Promise.resolve();
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
    const settle = () => {
      state.done = true;
      for (const t of pending) timers.clearTimeout(t);
      opts.signal.removeEventListener('abort', onAbort);
      // What the command left running ends with it.
      killGroup(child.pid, 'SIGKILL');
      start.keeper?.release();
    };
    const finish = () => {
      if (state.done) return;
      settle();
      child.stdout?.destroy();
      child.stderr?.destroy();
      void Promise.race([statusRead, new Promise((r) => setTimeout(r, STATUS_WAIT_MS).unref())]).then(conclude);
    };
    const conclude = () => {
      if (start.sandboxed && !status.includes(EXITED) && !state.cancelled && !state.timedOut) {
        const why = firstLine(err.result().head) || `bubblewrap exited with ${state.exit ?? state.signal}`;
        sandbox?.failed(why);
        reject(new WorkspaceError('io_error', `The sandbox could not start (${why}); the command was not run. Commands ask from now on.`));
        return;
      }
      const after = start.sandboxed?.afterRun() ?? { undone: [] };
      resolve({
        exitCode: state.exit,
        signal: state.signal,
        timedOut: state.timedOut,
        cancelled: state.cancelled,
        durationMs: Date.now() - started,
        stdout: out.result(),
        stderr: err.result(),
        combined: combined.result(),
        ...noticesOf(start.sandboxed, after),
      });
    };

    for (const [stream, capture, name] of [
      [child.stdout, out, 'stdout'],
      [child.stderr, err, 'stderr'],
    ] as const) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        capture.push(chunk);
        combined.push(chunk);
        opts.onOutput?.(chunk, name);
      });
    }
    child.on('error', (e) => {
      settle();
      reject(new WorkspaceError('io_error', `Could not start ${start.file}: ${e.message}`));
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

/** What the sandbox hid, and what it undid, for the command's result. */
function noticesOf(launch: SandboxLaunch | undefined, after: AfterRun): { notices?: string[] } {
  const { undone, problem } = after;
  const notices = [
    ...(launch?.notices ?? []),
    ...(undone.length ? [protectedNotice(undone)] : []),
    ...(problem ? [`The sandbox could not check everything this command changed: ${problem}.`] : []),
  ];
  return notices.length ? { notices } : {};
}

function protectedNotice(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).join(', ');
  return `The sandbox undid this command's changes to protected paths (${shown}${paths.length > 10 ? ', …' : ''}): a command that runs unasked may not create or replace them.`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
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
