// A Task: one kernel Runtime and its log file. It drives the runtime's runs in the background
// (the UI follows through `subscribe`), and knows whether it was cut off by a reload. Approve,
// reject and cancel go to `runtime` directly: a Task adds nothing to them. Fold does add
// something: a message sent while a fold runs waits for its note.
import type {
  ConversationState,
  FoldOutcome,
  RunStatus,
  RuntimeEvent,
  RuntimeFacade,
  RuntimeOutput,
  ToolDefinition,
} from '../../kernel/contracts/index.js';
import type { RestoreOutcome, RestoreRequest } from '../../kernel/index.js';
import { runtimeProcesses } from '../../compose/background.js';
import { isInterrupted, type TaskIndexEntry } from './task-index.js';

/** The runtime as the host drives it: the facade plus the output stream for UIs. */
export interface TaskRuntime extends RuntimeFacade {
  subscribe(listener: (out: RuntimeOutput) => void): () => void;
  /** Puts files back to a point of the task (absent: the runtime keeps no checkpoints). */
  restoreFiles?(request: RestoreRequest): Promise<RestoreOutcome>;
  /** What a call's tool is (its kind, its preview); absent: the host knows no tool of this runtime. */
  tool?(name: string): ToolDefinition | undefined;
}

export interface TaskHooks {
  /** The run's status changed (for the index and the view). */
  onStatus(task: Task, status: RunStatus): void;
  /** A run ended with an exception the kernel did not turn into an event (a bug): log it. */
  onCrash(task: Task, error: unknown): void;
}

export class Task {
  private running: Promise<void> | undefined;
  /** An idle fold writing its note (the runtime takes no message until it ends). */
  private folding: Promise<void> | undefined;
  private lastStatus: RunStatus;
  private interruptedFlag: boolean;
  private readonly unsubscribe: () => void;

  constructor(
    private entryValue: TaskIndexEntry,
    readonly runtime: TaskRuntime,
    private readonly hooks: TaskHooks,
  ) {
    this.lastStatus = runtime.getState().status;
    this.interruptedFlag = isInterrupted(this.lastStatus, false);
    this.unsubscribe = runtime.subscribe((out) => {
      if (out.kind === 'event') this.noticeStatus();
    });
  }

  get id(): string {
    return this.entryValue.id;
  }

  get entry(): TaskIndexEntry {
    return this.entryValue;
  }

  setEntry(entry: TaskIndexEntry): void {
    this.entryValue = entry;
  }

  /** Loaded from a log whose run never ended, and not resumed yet. */
  get interrupted(): boolean {
    return this.interruptedFlag;
  }

  /** A run is being driven in this window right now. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  getState(): ConversationState {
    return this.runtime.getState();
  }

  getEvents(): readonly RuntimeEvent[] {
    return this.runtime.getEvents();
  }

  /** Starts a run with the user's message. Throws if a run is still going. */
  send(input: Parameters<RuntimeFacade['send']>[0]): Promise<void> {
    if (this.running) throw new Error('This task is still running. Stop it or wait for it to finish.');
    if (this.folding) return this.folding.then(() => this.send(input));
    this.interruptedFlag = false;
    return this.drive(this.runtime.run(input));
  }

  /** Continues an interrupted run from the log; pending intents are asked again. */
  resume(): Promise<void> {
    if (this.running) return this.running;
    if (this.folding) return this.folding.then(() => this.resume());
    this.interruptedFlag = false;
    return this.drive(this.runtime.resumeRun());
  }

  /**
   * Folds the finished steps into an episode note: before the next model turn when a run is
   * going, at once otherwise. A message sent meanwhile waits for the note.
   */
  fold(): Promise<FoldOutcome> {
    if (this.running || this.folding) return this.runtime.fold();
    const work = this.runtime.fold();
    const folding: Promise<void> = work.then(
      () => this.foldEnded(folding),
      () => this.foldEnded(folding),
    );
    this.folding = folding;
    return work;
  }

  private foldEnded(folding: Promise<void>): void {
    if (this.folding === folding) this.folding = undefined;
  }

  /**
   * Stops listening and ends the background processes the task started (a runtime dropped and
   * rebuilt from its log starts with none); the runtime itself is left to end its run.
   */
  dispose(): void {
    this.unsubscribe();
    void runtimeProcesses(this.runtime)?.stopAll();
  }

  /** Resolves when the current run (if any) has ended. */
  idle(): Promise<void> {
    return this.running ?? this.folding ?? Promise.resolve();
  }

  /** Outputs reach the UI through subscribe(); here the run's end is awaited. */
  private drive(done: Promise<void>): Promise<void> {
    const run = (async () => {
      try {
        await done;
      } catch (error) {
        this.hooks.onCrash(this, error);
      } finally {
        this.running = undefined;
        this.noticeStatus(true);
      }
    })();
    this.running = run;
    return run;
  }

  private noticeStatus(force = false): void {
    const status = this.runtime.getState().status;
    if (!force && status === this.lastStatus) return;
    this.lastStatus = status;
    this.hooks.onStatus(this, status);
  }
}
