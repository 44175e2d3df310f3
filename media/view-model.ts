// The webview's copy of the view, folded from host messages, plus what changed since the last
// DOM update. Deltas are applied only in seq order; a gap asks the host for a snapshot.
import {
  type Activity,
  decodeSnapshotItems,
  parseTranscriptItem,
  type DeltaOp,
  type Hints,
  type Meter,
  type ProtocolLog,
  type HostMessage,
  type RetryNotice,
  type RunStatus,
  type SessionSnapshot,
  type TaskList,
  type TranscriptDelta,
  type TranscriptItem,
  type WorktreeSessions,
  PROGRESS_TAIL_CHARS,
} from '../src/protocol/index.js';

export type Structural = { type: 'add'; item: TranscriptItem } | { type: 'remove'; id: string };

/** What one batch of messages changed; the views redraw only this. */
export class Changes {
  reset = false;
  structural: Structural[] = [];
  /** Text appended to items that already have a view (items added in this batch render whole). */
  appended = new Map<string, string>();
  textDone = new Set<string>();
  intents = new Set<string>();
  status = false;
  retry = false;
  meter = false;
  hints = false;
  tasks = false;
  worktrees = false;
  activity = false;
  private added = new Set<string>();

  /** A snapshot replaces everything: forget the piecemeal changes. */
  resetAll(): void {
    Object.assign(this, new Changes());
    this.reset = true;
  }

  noteAdd(item: TranscriptItem): void {
    this.added.add(item.id);
    this.structural.push({ type: 'add', item });
  }

  /** Ids of the items added in this batch. */
  addedIds(): string[] {
    return [...this.added];
  }

  wasAdded(id: string): boolean {
    return this.added.has(id);
  }

  noteAppend(id: string, text: string): void {
    if (this.added.has(id)) return;
    this.appended.set(id, (this.appended.get(id) ?? '') + text);
  }
}

export type ApplyResult = 'applied' | 'stale' | 'gap' | 'waiting';

/**
 * One transcript entry. Snapshot items arrive unchecked and are validated the first time they
 * are rendered or touched; an item that fails validation is shown as an error notice.
 */
class Slot {
  private checked: TranscriptItem | undefined;

  constructor(
    readonly id: string,
    private raw: unknown,
  ) {}

  static of(item: TranscriptItem): Slot {
    const slot = new Slot(item.id, undefined);
    slot.checked = item;
    return slot;
  }

  item(log: ProtocolLog | undefined): TranscriptItem {
    if (!this.checked) {
      const parsed = parseTranscriptItem(this.raw, log);
      this.checked =
        parsed?.id === this.id ? parsed : { kind: 'notice', id: this.id, level: 'error', text: 'This item could not be shown.' };
      this.raw = undefined;
    }
    return this.checked;
  }
}

const idOf = (raw: unknown): string | undefined => {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
};

export class ViewModel {
  /** Undefined until a snapshot arrives (deltas before it are meaningless). */
  seq: number | undefined;
  taskId: string | undefined;
  status: RunStatus = 'idle';
  retry: { notice: RetryNotice; receivedAt: number } | null = null;
  meter: Meter | undefined;
  /** What the model stream is doing, and when it arrived (a stall's silence counts on from then). */
  activity: { value: Activity; receivedAt: number } | null = null;
  hints: Hints = { noApiKey: false, restricted: false, canResume: false };
  tasks: TaskList = { tasks: [] };
  worktrees: WorktreeSessions = { sessions: [], untracked: [] };
  /** host clock − local clock, from the last snapshot. */
  hostSkew = 0;
  private slots: Slot[] = [];
  private byId = new Map<string, Slot>();

  constructor(private readonly log?: ProtocolLog) {}

  get count(): number {
    return this.slots.length;
  }

  get(id: string): TranscriptItem | undefined {
    return this.byId.get(id)?.item(this.log);
  }

  /** Intents waiting for approval, among the newest items (where a live run's cards are). */
  pendingIds(): string[] {
    const ids: string[] = [];
    for (let i = this.count - 1; i >= Math.max(0, this.count - 50); i--) {
      const item = this.itemAt(i);
      if (item?.kind === 'intent' && item.status === 'awaiting_approval') ids.push(item.id);
    }
    return ids.reverse();
  }

  itemAt(index: number): TranscriptItem | undefined {
    return this.slots[index]?.item(this.log);
  }

  apply(message: HostMessage, changes: Changes, now = Date.now()): ApplyResult {
    switch (message.type) {
      case 'session/snapshot':
        this.applySnapshot(message, changes, now);
        return 'applied';
      case 'tasks/list':
        this.tasks = { tasks: message.tasks, ...(message.currentTaskId ? { currentTaskId: message.currentTaskId } : {}) };
        changes.tasks = true;
        return 'applied';
      case 'worktrees/list':
        this.worktrees = { sessions: message.sessions, untracked: message.untracked };
        changes.worktrees = true;
        return 'applied';
      case 'transcript/delta':
        return this.applyDelta(message, changes, now);
      case 'composer/attach':
      case 'composer/focus':
      case 'composer/mentions':
        // The composer's, not the transcript's (App.receive hands them over before batching).
        return 'applied';
    }
  }

  applySnapshot(snapshot: SessionSnapshot, changes: Changes, now: number): void {
    this.seq = snapshot.seq;
    this.taskId = snapshot.taskId;
    this.slots = [];
    this.byId = new Map();
    for (const raw of decodeSnapshotItems(snapshot.itemsJson, this.log)) {
      const id = idOf(raw);
      if (id === undefined || this.byId.has(id)) continue;
      const slot = new Slot(id, raw);
      this.slots.push(slot);
      this.byId.set(id, slot);
    }
    this.status = snapshot.status;
    this.retry = snapshot.retry ? { notice: snapshot.retry, receivedAt: now } : null;
    this.meter = snapshot.meter;
    this.activity = snapshot.activity ? { value: snapshot.activity, receivedAt: now } : null;
    this.hints = snapshot.hints;
    this.tasks = snapshot.tasks;
    this.hostSkew = snapshot.hostNow - now;
    changes.resetAll();
  }

  private applyDelta(delta: TranscriptDelta, changes: Changes, now: number): ApplyResult {
    if (this.seq === undefined) return 'waiting';
    if (delta.seq <= this.seq) return 'stale';
    if (delta.seq !== this.seq + 1) return 'gap';
    this.seq = delta.seq;
    for (const op of delta.ops) this.applyOp(op, changes, now);
    return 'applied';
  }

  private applyOp(op: DeltaOp, changes: Changes, now: number): void {
    switch (op.type) {
      case 'item/add':
        if (this.byId.has(op.item.id)) return;
        this.slots.push(Slot.of(op.item));
        this.byId.set(op.item.id, this.slots[this.slots.length - 1]!);
        changes.noteAdd(op.item);
        return;
      case 'item/remove':
        this.remove(op.id, changes);
        return;
      case 'item/replace':
        this.replace(op.item, changes);
        return;
      case 'text/append': {
        const item = this.get(op.id);
        if (item?.kind !== 'assistant' && item?.kind !== 'reasoning') return;
        item.text += op.text;
        changes.noteAppend(op.id, op.text);
        return;
      }
      case 'text/done': {
        const item = this.get(op.id);
        if (item?.kind !== 'assistant' && item?.kind !== 'reasoning') return;
        item.done = true;
        changes.textDone.add(op.id);
        return;
      }
      case 'intent/update':
      case 'intent/progress':
        this.applyIntentOp(op, changes);
        return;
      case 'frame/update': {
        const item = this.get(op.id);
        if (item?.kind !== 'frame') return;
        Object.assign(item, op.patch);
        // Updated in place like a card.
        changes.intents.add(op.id);
        return;
      }
      case 'status/set':
        this.status = op.status;
        changes.status = true;
        return;
      case 'retry/set':
        this.retry = op.retry ? { notice: op.retry, receivedAt: now } : null;
        changes.retry = true;
        return;
      case 'meter/set':
        this.meter = op.meter;
        changes.meter = true;
        return;
      case 'hints/set':
        this.hints = op.hints;
        changes.hints = true;
        return;
      case 'activity/set':
        this.activity = op.activity ? { value: op.activity, receivedAt: now } : null;
        changes.activity = true;
        return;
    }
  }

  private applyIntentOp(op: Extract<DeltaOp, { type: 'intent/update' | 'intent/progress' }>, changes: Changes): void {
    const item = this.get(op.id);
    if (item?.kind !== 'intent') return;
    if (op.type === 'intent/update') Object.assign(item, op.patch);
    else item.progressTail = (op.replace ? op.chunk : (item.progressTail ?? '') + op.chunk).slice(-PROGRESS_TAIL_CHARS);
    changes.intents.add(op.id);
  }

  /** Same id, same place; its view is updated like a card's. */
  private replace(item: TranscriptItem, changes: Changes): void {
    const slot = this.byId.get(item.id);
    if (!slot) return;
    const next = Slot.of(item);
    this.slots[this.slots.lastIndexOf(slot)] = next;
    this.byId.set(item.id, next);
    changes.intents.add(item.id);
  }

  private remove(id: string, changes: Changes): void {
    if (!this.byId.delete(id)) return;
    for (let at = this.slots.length - 1; at >= 0; at--) {
      if (this.slots[at]!.id !== id) continue;
      this.slots.splice(at, 1);
      break;
    }
    changes.appended.delete(id);
    changes.structural.push({ type: 'remove', id });
  }
}
