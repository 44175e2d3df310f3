// At most one DOM update per animation frame, and at most 60 in any second (a display that
// refreshes faster, or a frame clock running a little fast, gets no more updates than a
// 60 Hz one). The first message after an idle frame is applied at once (no frame of latency
// for a lone append); anything arriving while this frame already has its update — or while
// the second's budget is spent — waits for a later animation frame, batched.
export type RequestFrame = (cb: () => void) => void;

const MAX_PER_SECOND = 60;

export class FrameBatcher<T> {
  private queue: T[] = [];
  private updatedThisFrame = false;
  private frameRequested = false;
  /** When the last MAX_PER_SECOND updates ran: a ring, `next` is the oldest. */
  private readonly recent = new Float64Array(MAX_PER_SECOND).fill(-Infinity);
  private next = 0;

  constructor(
    private readonly apply: (batch: T[]) => void,
    private readonly requestFrame: RequestFrame = (cb) => requestAnimationFrame(() => cb()),
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (!this.updatedThisFrame && this.withinBudget()) this.run();
    else this.ensureFrame();
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Fewer than MAX_PER_SECOND updates ran in the last second. */
  private withinBudget(): boolean {
    return this.now() - this.recent[this.next]! >= 1000;
  }

  private run(): void {
    const batch = this.queue;
    this.queue = [];
    this.updatedThisFrame = true;
    this.recent[this.next] = this.now();
    this.next = (this.next + 1) % MAX_PER_SECOND;
    this.ensureFrame();
    this.apply(batch);
  }

  private ensureFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.requestFrame(() => this.onFrame());
  }

  private onFrame(): void {
    this.frameRequested = false;
    this.updatedThisFrame = false;
    if (this.queue.length === 0) return;
    if (this.withinBudget()) this.run();
    else this.ensureFrame();
  }
}
