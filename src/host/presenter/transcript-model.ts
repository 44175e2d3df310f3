// The host's copy of the view: the transcript items plus status, retry, meter inputs and hints.
// Every mutation goes through a method that both changes the model and records the op that
// makes the same change in the webview, so a snapshot and the op stream can never disagree.
import type { CheckpointFile, ToolKind } from '../../kernel/contracts/index.js';
import {
  PROGRESS_TAIL_CHARS,
  type Activity,
  type DeltaOp,
  type Hints,
  type IntentItem,
  type IntentPatch,
  type RetryNotice,
  type RunStatus,
  type TaskList,
  type TranscriptItem,
} from '../../protocol/index.js';
import type { CharTally } from './meter.js';

export class TranscriptModel {
  items: TranscriptItem[] = [];
  /** What a call's tool is (its declared kind), for the cards; undefined: unknown to the host. */
  toolKind: (tool: string) => ToolKind | undefined = () => undefined;
  status: RunStatus = 'idle';
  retry: RetryNotice | null = null;
  /** What the model stream is doing now (activity-mapper.ts); null: nothing beyond the status. */
  activity: Activity | null = null;
  hints: Hints = { noApiKey: false, restricted: false, canResume: false };
  tasks: TaskList = { tasks: [] };
  taskId: string | undefined;
  /**
   * A fold came after the last turn's usage: that turn's input no longer says what is in use (the
   * meter estimates until the next turn). The usage itself is the kernel's (presenter.ts).
   */
  foldedSinceTurn = false;
  folds = 0;
  tally: CharTally = { conversation: 0, toolResults: 0 };
  /** Items streamed in the current model turn (a retried turn removes them). */
  turnItemIds: string[] = [];
  currentTextId: string | undefined;
  currentReasoningId: string | undefined;
  /** The failure notice that offers Retry (only the latest failure does, until the next run). */
  retryNoticeId: string | undefined;
  /** The current run's step checkpoints, for its Files changed summary (see checkpoint-mapper.ts). */
  runCheckpoints: { seq: number; files: CheckpointFile[] }[] = [];
  /** Each Files changed summary not yet undone: its files' content before the run, and those not back to it. */
  openSummaries = new Map<string, { before: Map<string, string | null>; pending: Set<string> }>();
  private readonly byId = new Map<string, TranscriptItem>();
  /** Intents not yet done, failed or rejected, in proposal order: kept so no event scans all items. */
  private readonly openIntents = new Set<string>();
  private ops: DeltaOp[] = [];

  constructor(private readonly tailChars = PROGRESS_TAIL_CHARS) {}

  /** Returns (and forgets) the ops recorded since the last call. */
  takeOps(): DeltaOp[] {
    const ops = this.ops;
    this.ops = [];
    return ops;
  }

  get(id: string): TranscriptItem | undefined {
    return this.byId.get(id);
  }

  intent(id: string): IntentItem | undefined {
    const item = this.byId.get(id);
    return item?.kind === 'intent' ? item : undefined;
  }

  add(item: TranscriptItem): void {
    if (this.byId.has(item.id)) return;
    this.items.push(item);
    this.byId.set(item.id, item);
    this.trackIntent(item);
    this.ops.push({ type: 'item/add', item: { ...item } });
  }

  remove(id: string): void {
    if (!this.byId.delete(id)) return;
    this.openIntents.delete(id);
    // Removed items are the current turn's, at the end: search backwards.
    for (let at = this.items.length - 1; at >= 0; at--) {
      if (this.items[at]!.id !== id) continue;
      this.items.splice(at, 1);
      break;
    }
    this.ops.push({ type: 'item/remove', id });
  }

  /** Replaces an item in place (same id, same kind). */
  replace(item: TranscriptItem): void {
    const known = this.byId.get(item.id);
    if (!known || known.kind !== item.kind) return;
    const at = this.items.lastIndexOf(known);
    this.items[at] = item;
    this.byId.set(item.id, item);
    this.ops.push({ type: 'item/replace', item: { ...item } });
  }

  appendText(id: string, text: string): void {
    const item = this.byId.get(id);
    if (!item || (item.kind !== 'assistant' && item.kind !== 'reasoning')) return;
    item.text += text;
    this.ops.push({ type: 'text/append', id, text });
  }

  finishText(id: string | undefined): void {
    const item = id === undefined ? undefined : this.byId.get(id);
    if (!item || (item.kind !== 'assistant' && item.kind !== 'reasoning') || item.done) return;
    item.done = true;
    this.ops.push({ type: 'text/done', id: item.id });
  }

  patchIntent(id: string, patch: IntentPatch): void {
    const item = this.intent(id);
    if (!item) return;
    Object.assign(item, patch);
    this.trackIntent(item);
    this.ops.push({ type: 'intent/update', id, patch });
  }

  progress(id: string, chunk: string): void {
    const item = this.intent(id);
    if (!item) return;
    item.progressTail = ((item.progressTail ?? '') + chunk).slice(-this.tailChars);
    this.ops.push({ type: 'intent/progress', id, chunk });
  }

  setStatus(status: RunStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.ops.push({ type: 'status/set', status });
  }

  setRetry(retry: RetryNotice | null): void {
    if (retry === null && this.retry === null) return;
    this.retry = retry;
    this.ops.push({ type: 'retry/set', retry });
  }

  setActivity(activity: Activity | null): void {
    if (activity === null && this.activity === null) return;
    this.activity = activity;
    this.ops.push({ type: 'activity/set', activity });
  }

  setHints(hints: Partial<Hints>): void {
    const next = { ...this.hints, ...hints };
    if (sameHints(next, this.hints)) return;
    this.hints = next;
    this.ops.push({ type: 'hints/set', hints: { ...next } });
  }

  /** Records a ready-made op (the meter, computed by the presenter). */
  record(op: DeltaOp): void {
    this.ops.push(op);
  }

  /** Open intents, in proposal order, whose status is one of `statuses`. */
  openIntentIds(statuses: readonly IntentItem['status'][]): string[] {
    return [...this.openIntents].filter((id) => statuses.includes(this.intent(id)!.status));
  }

  pendingIntentIds(): string[] {
    return this.openIntentIds(['awaiting_approval']);
  }

  private trackIntent(item: TranscriptItem): void {
    if (item.kind !== 'intent') return;
    const closed = item.status === 'done' || item.status === 'failed' || item.status === 'rejected';
    if (closed) this.openIntents.delete(item.id);
    else this.openIntents.add(item.id);
  }

  startTurn(): void {
    this.finishText(this.currentTextId);
    this.finishText(this.currentReasoningId);
    this.turnItemIds = [];
    this.currentTextId = undefined;
    this.currentReasoningId = undefined;
  }
}

function sameHints(a: Hints, b: Hints): boolean {
  const sameRules = (a.rules ?? []).join('\n') === (b.rules ?? []).join('\n');
  // The header's model, auto-approve classes and mode: small values, compared whole.
  const sameHeader =
    JSON.stringify([a.model, a.autoApprove, a.mode, a.agent ?? null]) === JSON.stringify([b.model, b.autoApprove, b.mode, b.agent ?? null]);
  // The pinned to-do list: at most 50 short items, compared whole.
  const sameTodos = JSON.stringify(a.todos) === JSON.stringify(b.todos);
  // The composer's slash commands: at most 200 short entries, compared whole.
  const sameCommands = JSON.stringify(a.commands) === JSON.stringify(b.commands);
  // The header picker's custom agents: at most 64, compared whole.
  const sameAgents = JSON.stringify(a.agents) === JSON.stringify(b.agents);
  // The background processes: at most 16 short rows, compared whole.
  const sameProcesses = JSON.stringify(a.processes ?? []) === JSON.stringify(b.processes ?? []);
  return (
    a.noApiKey === b.noApiKey &&
    a.keyNotNeeded === b.keyNotNeeded &&
    a.keyUnread === b.keyUnread &&
    a.endpoint === b.endpoint &&
    a.restricted === b.restricted &&
    a.canResume === b.canResume &&
    a.question === b.question &&
    sameRules &&
    sameHeader &&
    sameCommands &&
    sameAgents &&
    sameTodos &&
    sameProcesses
  );
}
