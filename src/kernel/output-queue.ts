// A push → pull bridge: the loop pushes outputs, a `for await` consumer pulls them.
// Amortised O(1) per item; no promise is created while items are waiting.

export class OutputQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private closed = false;
  private failure: unknown = undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly onReturn?: () => void) {}

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.notify();
  }

  close(error?: unknown): void {
    this.closed = true;
    this.failure = error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    if (wake) {
      this.wake = undefined;
      wake();
    }
  }

  private take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as T;
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /**
   * A hand-written iterator rather than an async generator: a queued item costs one resolved
   * promise, which matters at a million streamed deltas.
   */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: () => {
        if (!this.closed) this.onReturn?.();
        this.closed = true;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) return Promise.resolve({ value: this.take()!, done: false });
    if (this.closed) return this.failure !== undefined ? Promise.reject(this.failure) : Promise.resolve({ value: undefined, done: true });
    return new Promise<void>((resolve) => (this.wake = resolve)).then(() => this.next());
  }
}
