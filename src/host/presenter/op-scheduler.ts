// Coalesces delta ops into at most one post per frame. Appends to the same item merge into one
// op, live tool output keeps only its tail, and urgent ops (first text of a turn, approval
// requests, errors, end of run) flush at once so the user never waits a frame for them.
import { PROGRESS_TAIL_CHARS, type DeltaOp, type TranscriptDelta } from '../../protocol/index.js';
import type { SchedulerClock } from './clock.js';

export interface OpSchedulerOptions {
  clock: SchedulerClock;
  post(delta: TranscriptDelta): void;
  /** Minimum time between two non-urgent posts. */
  frameMs?: number;
  /** Live output kept per intent in one delta (older output is dropped, `replace` is set). */
  maxTailChars?: number;
}

type AppendOp = Extract<DeltaOp, { type: 'text/append' | 'intent/progress' }>;

export class OpScheduler {
  private pending: DeltaOp[] = [];
  /** Where the mergeable append for an item sits in `pending`; cleared by any other op. */
  private appendAt = new Map<string, number>();
  /** Where the pending activity op sits in `pending` (it depends on nothing, so any later one replaces it). */
  private activityAt: number | undefined;
  private timer: unknown;
  private lastPostAt = Number.NEGATIVE_INFINITY;
  private seq: number;
  private readonly frameMs: number;
  private readonly maxTailChars: number;

  constructor(
    private readonly options: OpSchedulerOptions,
    startSeq = 0,
  ) {
    this.frameMs = options.frameMs ?? 16;
    this.maxTailChars = options.maxTailChars ?? PROGRESS_TAIL_CHARS;
    this.seq = startSeq;
  }

  /** The seq of the last posted delta. */
  get lastSeq(): number {
    return this.seq;
  }

  push(ops: readonly DeltaOp[], urgent = false): void {
    for (const op of ops) this.enqueue(op);
    if (urgent) this.flush();
    else if (this.pending.length > 0) this.schedule();
  }

  /** Posts everything pending now, as one delta. */
  flush(): void {
    this.cancelTimer();
    if (this.pending.length === 0) return;
    const ops = this.pending;
    this.pending = [];
    this.appendAt.clear();
    this.activityAt = undefined;
    this.seq += 1;
    this.lastPostAt = this.options.clock.now();
    this.options.post({ type: 'transcript/delta', seq: this.seq, ops });
  }

  /** Drops pending ops (a snapshot that already contains them is about to be sent). */
  discardPending(): void {
    this.cancelTimer();
    this.pending = [];
    this.appendAt.clear();
    this.activityAt = undefined;
  }

  dispose(): void {
    this.discardPending();
  }

  private enqueue(op: DeltaOp): void {
    if (op.type === 'activity/set') return this.enqueueActivity(op);
    if (op.type !== 'text/append' && op.type !== 'intent/progress') {
      // Anything else may depend on the appends before it: stop merging across it.
      this.appendAt.clear();
      this.pending.push(op);
      return;
    }
    const key = `${op.type}:${op.id}`;
    const at = this.appendAt.get(key);
    if (at === undefined) {
      this.appendAt.set(key, this.pending.length);
      this.pending.push(this.bounded({ ...op }));
      return;
    }
    this.pending[at] = this.bounded(merge(this.pending[at] as AppendOp, op));
  }

  /** Only the latest activity matters (a call's input grows by the fragment): one op per delta, in place. */
  private enqueueActivity(op: Extract<DeltaOp, { type: 'activity/set' }>): void {
    if (this.activityAt !== undefined) this.pending[this.activityAt] = op;
    else {
      this.activityAt = this.pending.length;
      this.pending.push(op);
    }
  }

  private bounded(op: AppendOp): AppendOp {
    if (op.type !== 'intent/progress' || op.chunk.length <= this.maxTailChars) return op;
    return { ...op, chunk: op.chunk.slice(-this.maxTailChars), replace: true };
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastPostAt + this.frameMs - this.options.clock.now());
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function merge(into: AppendOp, next: AppendOp): AppendOp {
  if (into.type === 'text/append' && next.type === 'text/append') {
    return { ...into, text: into.text + next.text };
  }
  if (into.type === 'intent/progress' && next.type === 'intent/progress') {
    // A `replace` in the later chunk wipes what came before it.
    if (next.replace) return { ...next };
    return { ...into, chunk: into.chunk + next.chunk };
  }
  return next;
}
