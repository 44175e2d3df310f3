// Splits streamed markdown into blocks at stable boundaries, so a finished block is rendered
// once and never again. Boundaries: a blank line outside a code fence, the start of a fence,
// and the end of a fence. Work per push is O(chunk + open block): only the open block's text
// is kept, and only its new complete lines are scanned.

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

interface Fence {
  char: string;
  length: number;
}

export class BlockSplitter {
  private open = '';
  /** Offset in `open` of the first line not yet classified. */
  private scanned = 0;
  private fence: Fence | undefined;

  /** The open (unfinished) block's text. */
  get openText(): string {
    return this.open;
  }

  /** True when the open block is a code fence still streaming. */
  get inFence(): boolean {
    return this.fence !== undefined;
  }

  /** Adds streamed text; returns the blocks it finished, in order. */
  push(chunk: string): string[] {
    const finished: string[] = [];
    this.open += chunk;
    let newline = this.open.indexOf('\n', this.scanned);
    while (newline !== -1) {
      const lineStart = this.scanned;
      const line = this.open.slice(lineStart, newline);
      this.scanned = newline + 1;
      this.classify(line, lineStart, finished);
      newline = this.open.indexOf('\n', this.scanned);
    }
    return finished;
  }

  /** Ends the stream: whatever is open is finished. */
  end(): string[] {
    const rest = this.open;
    this.open = '';
    this.scanned = 0;
    this.fence = undefined;
    return rest.trim() ? [rest] : [];
  }

  private classify(line: string, lineStart: number, finished: string[]): void {
    if (this.fence) {
      if (closesFence(line, this.fence)) {
        this.fence = undefined;
        this.cut(this.scanned, this.scanned, finished);
      }
      return;
    }
    if (line.trim() === '') {
      this.cut(lineStart, this.scanned, finished);
      return;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
      // The text before a fence is a block of its own, so the fence renders alone while open.
      this.cut(lineStart, lineStart, finished);
      this.fence = { char: open[1]![0]!, length: open[1]!.length };
    }
  }

  /** Finishes `open[0, end)` as a block (if not blank) and continues from `resume`. */
  private cut(end: number, resume: number, finished: string[]): void {
    const block = this.open.slice(0, end);
    if (block.trim()) finished.push(block);
    this.open = this.open.slice(resume);
    this.scanned -= resume;
  }
}

function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.replace(/^ {0,3}/, '').trimEnd();
  if (trimmed.length < fence.length) return false;
  for (const ch of trimmed) if (ch !== fence.char) return false;
  return true;
}
