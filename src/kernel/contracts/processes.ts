// The background-process port: programs a task starts and leaves running (a dev server, a
// watcher, `tsc --watch`) while the model goes on working, read and stopped by name. One table
// per task: what it started ends with the task, and a host's keeper ends it with Keel too. The
// policy decided how each one runs (its sandbox profile) before it reaches the table.
import type { CapturedStream } from './workspace.js';
import type { SandboxProfile } from './sandbox.js';

export interface BackgroundStart {
  name: string;
  command: string;
  /** Workspace-relative folder; the root when absent. */
  cwd?: string;
  /** The profile the call's approval chose; absent: `none`. */
  sandbox?: SandboxProfile;
  env?: Record<string, string>;
}

/** running, or ended by itself (`exited`), or ended by a stop (the model's, the user's, the task's). */
type BackgroundState = 'running' | 'exited' | 'stopped';

export interface BackgroundInfo {
  name: string;
  command: string;
  cwd?: string;
  sandbox: SandboxProfile;
  state: BackgroundState;
  exitCode: number | null;
  /** Ports it printed that it listens on, in the order printed. */
  ports: readonly number[];
  startedAt: number;
  /** Characters it has printed in all. */
  outputChars: number;
  /** Why it could not be started or what ended it, when the host knows (the sandbox's words). */
  problem?: string;
}

export interface BackgroundOutput {
  info: BackgroundInfo;
  output: CapturedStream;
}

export type BackgroundErrorCode = 'limit' | 'name_taken' | 'not_found' | 'failed';

export class BackgroundError extends Error {
  constructor(
    readonly code: BackgroundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BackgroundError';
  }
}

export interface BackgroundProcesses {
  /** How many may run at once. */
  readonly limit: number;
  /**
   * Starts one and waits until it prints a port, ends, or `settleMs` pass, whichever is first;
   * the output so far counts as read. Throws BackgroundError (the limit, a name in use, a start
   * that failed).
   */
  start(request: BackgroundStart, wait: { settleMs: number; signal: AbortSignal }): Promise<BackgroundOutput>;
  /** `new`: what it printed since the last read (which this read marks read); `tail`: its first and last output. */
  read(name: string, mode: 'new' | 'tail'): BackgroundOutput;
  /** Ends it (its whole process group) and waits until it has ended. */
  stop(name: string): Promise<BackgroundInfo>;
  /** Every one this task started, running first. */
  list(): BackgroundInfo[];
  /** Ends every one still running (the task is over). */
  stopAll(): Promise<void>;
  /** Told when one starts, prints a new port, or ends (the panel's list). */
  subscribe(listener: () => void): () => void;
}
