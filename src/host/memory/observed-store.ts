// The extension's one memory store, with a signal after every change made in this window: the
// model's remember/recall/forget and the Memory view's own edits go through it, so the view
// redraws whoever wrote. Changes from other windows arrive through a file watcher instead.
import type { MemoryRecord, MemoryStore, RecallHit, RecallQuery } from '../../kernel/index.js';

export class ObservedMemoryStore implements MemoryStore {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly inner: MemoryStore) {}

  /** Calls `listener` after each append or tombstone; returns the unsubscribe. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells listeners the files changed underneath (another window wrote). */
  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  async append(record: MemoryRecord): Promise<void> {
    await this.inner.append(record);
    this.changed();
  }

  async tombstone(id: string): Promise<boolean> {
    const done = await this.inner.tombstone(id);
    if (done) this.changed();
    return done;
  }

  list(): Promise<MemoryRecord[]> {
    return this.inner.list();
  }

  recall(query: RecallQuery): Promise<RecallHit[]> {
    return this.inner.recall(query);
  }
}
