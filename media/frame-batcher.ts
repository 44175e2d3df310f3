// At most one DOM update per animation frame. The first message after an idle frame is
// applied at once (no frame of latency for a lone append); anything arriving while this
// frame already has its update waits for the next animation frame, batched.
export type RequestFrame = (cb: () => void) => void;

export class FrameBatcher<T> {
  private queue: T[] = [];
  private updatedThisFrame = false;
  private frameRequested = false;

  constructor(
    private readonly apply: (batch: T[]) => void,
    private readonly requestFrame: RequestFrame = (cb) => requestAnimationFrame(() => cb()),
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (!this.updatedThisFrame) this.run();
    else this.ensureFrame();
  }

  get pending(): number {
    return this.queue.length;
  }

  private run(): void {
    const batch = this.queue;
    this.queue = [];
    this.updatedThisFrame = true;
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
    if (this.queue.length > 0) this.run();
  }
}
