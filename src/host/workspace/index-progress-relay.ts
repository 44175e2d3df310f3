// The code index's progress on its way to the panel's "Indexing the workspace" line: the index
// reports every file it parses, the panel needs a few updates a second at most, and the line
// goes away when the build ends. The index is built before the session that shows it exists
// (the window's folder step), so the session listens once it is there; what came before is
// simply not shown.
import type { IndexProgress } from '../../codeintel/code-index.js';

/** The least time between two updates the panel is sent. */
const EVERY_MS = 250;

export type IndexingHint = { parsed: number; total: number } | undefined;

export class IndexProgressRelay {
  private listener: ((indexing: IndexingHint) => void) | undefined;
  private last = Number.NEGATIVE_INFINITY;
  private shown = false;

  constructor(private readonly now: () => number = Date.now) {}

  listen(listener: (indexing: IndexingHint) => void): void {
    this.listener = listener;
  }

  /** Given to the index as its onProgress. */
  readonly report = ({ parsed, total }: IndexProgress): void => {
    if (parsed >= total) {
      if (this.shown) this.listener?.(undefined);
      this.shown = false;
      this.last = Number.NEGATIVE_INFINITY;
      return;
    }
    const at = this.now();
    if (!this.listener || at - this.last < EVERY_MS) return;
    this.last = at;
    this.shown = true;
    this.listener({ parsed, total });
  };
}
