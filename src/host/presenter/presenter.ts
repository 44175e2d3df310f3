// The host-side presenter: kernel outputs in, protocol messages out. It keeps the view model,
// turns every RuntimeOutput into small ops, and lets the scheduler coalesce them per frame. The
// run's status and the usage are read from the kernel's state, never folded again here.
import {
  isLiveStatus,
  RUN_END_TYPES,
  type ConversationState,
  type ModelRequest,
  type RuntimeEvent,
  type RuntimeOutput,
  type ToolKind,
} from '../../kernel/contracts/index.js';
import type { Price } from '../../providers/models.js';
import {
  encodeSnapshotItems,
  type HostMessage,
  type Hints,
  type IntentPatch,
  type Meter,
  type SessionSnapshot,
  type TaskList,
  type TranscriptItem,
} from '../../protocol/index.js';
import { realClock, type SchedulerClock } from './clock.js';
import { applyOutput } from './event-mapper.js';
import { buildMeter, splitOfRequest, splitOfTally } from './meter.js';
import { OpScheduler } from './op-scheduler.js';
import { TranscriptModel } from './transcript-model.js';

export type PresentedSnapshot = SessionSnapshot & { readonly items: TranscriptItem[] };

/** What the view shows of the kernel's state as it is: the run's status and the task's usage. */
type KernelFacts = Pick<ConversationState, 'status' | 'usage' | 'lastTurnUsage'>;

export interface PresenterOptions {
  /** Where messages go: `webviewView.webview.postMessage` (a lost post is healed by a snapshot). */
  post(message: HostMessage): void;
  /** The kernel's state of the task shown, after every output it published (`runtime.getState()`). */
  kernel(): KernelFacts;
  clock?: SchedulerClock;
  /** Minimum time between two ordinary deltas; urgent ones go at once. */
  frameMs?: number;
  /** Live tool output kept per intent. */
  maxTailChars?: number;
  /** The model's context window, for the meter (0 = unknown). */
  contextWindow?: number;
  /** The model's price, for the meter's cost per kind of token (none: tokens only). */
  price?: Price;
}

/** Events that start or end a run: an interrupted run shown idle is over after any of them. */
const RUN_EDGES = new Set<RuntimeEvent['type']>(['run_started', 'run_resumed', ...RUN_END_TYPES]);

/** Events after which the meter may have changed (never per text delta: that would cost bytes). */
const METER_EVENTS = new Set<RuntimeEvent['type']>([
  'user_message',
  'usage',
  'model_final',
  'observation',
  'context_folded',
  'run_finished',
]);

export class Presenter {
  private model: TranscriptModel;
  private readonly scheduler: OpScheduler;
  private readonly clock: SchedulerClock;
  private contextWindow: number;
  private price: Price | undefined;
  private request: ModelRequest | undefined;
  private lastMeterJson = '';
  /** The task was loaded with a run that never ended: shown idle and resumable until a run starts or ends. */
  private interrupted = false;
  private toolKind: (tool: string) => ToolKind | undefined = () => undefined;

  constructor(private readonly options: PresenterOptions) {
    this.clock = options.clock ?? realClock;
    this.contextWindow = options.contextWindow ?? 0;
    this.price = options.price;
    this.model = new TranscriptModel(options.maxTailChars);
    this.scheduler = new OpScheduler({
      clock: this.clock,
      post: (delta) => options.post(delta),
      ...(options.frameMs === undefined ? {} : { frameMs: options.frameMs }),
      ...(options.maxTailChars === undefined ? {} : { maxTailChars: options.maxTailChars }),
    });
  }

  /** Feed every output of the runtime (`rt.subscribe(out => presenter.handle(out))`). */
  handle(output: RuntimeOutput): void {
    const { urgent } = applyOutput(this.model, output);
    if (output.kind === 'event') {
      if (RUN_EDGES.has(output.event.type)) this.interrupted = false;
      this.showStatus();
      if (METER_EVENTS.has(output.event.type)) this.recordMeter();
    }
    this.scheduler.push(this.model.takeOps(), urgent);
  }

  /**
   * Rebuilds the view from a task's log (task opened, window reloaded) without posting; call
   * `postSnapshot()` afterwards. A run that was live when the log ends was interrupted: it is
   * shown as resumable, and its pending approvals wait for `task/resume` to ask again.
   */
  load(events: readonly RuntimeEvent[], taskId?: string): void {
    this.reset(taskId);
    for (const event of events) applyOutput(this.model, { kind: 'event', event });
    this.showStatus();
    if (isLiveStatus(this.model.status)) this.markInterrupted();
    this.lastMeterJson = '';
    this.recordMeter();
    this.model.takeOps();
  }

  /** An empty task (New Task). Call `postSnapshot()` afterwards. */
  reset(taskId?: string): void {
    // The rules line, the to-do list, the mode, the custom agent and the background processes belong to a task: another
    // task's log brings its own (a New Task runs as no agent, so the header must not name one).
    const {
      hints: { rules: _rules, todos: _todos, mode: _mode, agent: _agent, processes: _processes, ...hints },
      tasks,
    } = this.model;
    this.scheduler.discardPending();
    this.model = new TranscriptModel(this.options.maxTailChars);
    this.model.toolKind = this.toolKind;
    this.model.hints = { ...hints, canResume: false };
    this.model.tasks = tasks;
    this.model.taskId = taskId;
    this.request = undefined;
    this.interrupted = false;
  }

  /** What the shown task's tools are (their declared kinds), for the cards of calls from now on. */
  setToolKinds(toolKind: (tool: string) => ToolKind | undefined): void {
    this.toolKind = toolKind;
    this.model.toolKind = toolKind;
  }

  /** The request the kernel is about to send: gives the meter an exact split. */
  setRequest(request: ModelRequest): void {
    this.request = request;
    this.pushMeter();
  }

  /** The task's model: its window (0 = unknown) and price (undefined = unknown). */
  setModel(model: { contextWindow: number; price: Price | undefined }): void {
    this.contextWindow = model.contextWindow;
    this.price = model.price;
    this.pushMeter();
  }

  setHints(hints: Partial<Hints>): void {
    this.model.setHints(hints);
    this.scheduler.push(this.model.takeOps(), true);
  }

  /** An item of the view alone, not of the task's log (an Apply's card); posted at once. */
  addItem(item: TranscriptItem): void {
    this.model.add(item);
    this.scheduler.push(this.model.takeOps(), true);
  }

  /** A change to such an item's card (an Apply decided). */
  updateIntent(id: string, patch: IntentPatch): void {
    this.model.patchIntent(id, patch);
    this.scheduler.push(this.model.takeOps(), true);
  }

  /** An item replaced in place (a Files changed summary with its line counts). */
  replaceItem(item: TranscriptItem): void {
    const known = this.model.get(item.id);
    // Line counts computed from an older copy keep what happened since (the run was undone).
    const undone = known?.kind === 'changes' && known.undone && item.kind === 'changes';
    this.model.replace(undone ? { ...item, undone: true } : item);
    this.scheduler.push(this.model.takeOps());
  }

  /** The task history; posted at once (it is small and rare). */
  setTasks(list: TaskList): void {
    this.model.tasks = list;
    this.options.post({ type: 'tasks/list', ...list });
  }

  /**
   * The snapshot as posted, plus `items` decoded for host-side callers (tests, diagnostics);
   * `postSnapshot()` posts only the protocol message (items travel as `itemsJson`).
   */
  snapshot(): PresentedSnapshot {
    return { ...this.wireSnapshot(), items: this.items() };
  }

  private wireSnapshot(): SessionSnapshot {
    const m = this.model;
    return {
      type: 'session/snapshot',
      seq: this.scheduler.lastSeq,
      hostNow: this.clock.now(),
      ...(m.taskId === undefined ? {} : { taskId: m.taskId }),
      itemsJson: encodeSnapshotItems(m.items),
      status: m.status,
      retry: m.retry,
      pendingIntentIds: m.pendingIntentIds(),
      meter: this.meter(),
      hints: { ...m.hints },
      tasks: m.tasks,
      ...(m.activity ? { activity: m.activity } : {}),
    };
  }

  /** Ids of the cards waiting for an answer now. */
  pendingIds(): string[] {
    return this.model.pendingIntentIds();
  }

  /** The transcript items as the view shows them (copies). */
  items(): TranscriptItem[] {
    return this.model.items.map((item) => ({ ...item }));
  }

  /** Answer to `webview/ready`: the whole view, replacing whatever pending ops would have said. */
  postSnapshot(): void {
    this.scheduler.discardPending();
    this.options.post(this.wireSnapshot());
  }

  flush(): void {
    this.scheduler.flush();
  }

  dispose(): void {
    this.scheduler.dispose();
  }

  private markInterrupted(): void {
    for (const id of this.model.openIntentIds(['awaiting_approval', 'running', 'approved'])) {
      this.model.patchIntent(id, { status: 'proposed' });
    }
    this.interrupted = true;
    this.showStatus();
    this.model.setHints({ canResume: true });
  }

  /** The kernel's status, but idle while an interrupted run waits to be resumed. */
  private showStatus(): void {
    this.model.setStatus(this.interrupted ? 'idle' : this.options.kernel().status);
  }

  private meter(): Meter {
    const m = this.model;
    const { usage, lastTurnUsage } = this.options.kernel();
    return buildMeter({
      lastTurnUsage: m.foldedSinceTurn ? undefined : lastTurnUsage,
      usage,
      costUsd: usage.costUsd,
      windowTokens: this.contextWindow,
      split: this.request ? splitOfRequest(this.request) : splitOfTally(m.tally),
      price: this.price,
      folds: m.folds,
    });
  }

  /** Records a meter op only when the meter changed. */
  private recordMeter(): void {
    const meter = this.meter();
    const json = JSON.stringify(meter);
    if (json === this.lastMeterJson) return;
    this.lastMeterJson = json;
    this.model.record({ type: 'meter/set', meter });
  }

  private pushMeter(): void {
    this.recordMeter();
    this.scheduler.push(this.model.takeOps());
  }
}
