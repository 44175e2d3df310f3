// Line numbers of a text found on demand, for an exact edit of a large file: the diff needs the
// lines around each change and their numbers, not an offset for each of 100,000 lines. Lines are
// counted from the nearest line already known, forwards or backwards, so questions asked in order
// scan the text once and the context lines just before a change cost a few lines, not a rescan.
import { type LineLookup, NO_EOL } from './line-index.js';

export class SparseLines implements LineLookup {
  /** Known line starts, ascending: line numbers and their offsets. */
  private readonly lines = [0];
  private readonly offsets = [0];
  private total: number | undefined;

  constructor(readonly text: string) {}

  /** Lines, as LineIndex counts them (a final newline ends the last line). */
  get length(): number {
    if (this.total === undefined) {
      const t = this.text;
      this.total = t === '' ? 0 : this.lineOf(t.length) + (t.endsWith('\n') ? 0 : 1);
    }
    return this.total;
  }

  /** min(length, n), counting lines no further than the nth: an edit near the top never counts the rest of the file. */
  linesUpTo(n: number): number {
    if (n <= 0) return 0;
    if (this.total === undefined && this.startOf(n - 1) < this.text.length) return n;
    return Math.min(this.length, n);
  }

  /** 0-based line containing the offset. */
  lineOf(offset: number): number {
    const k = this.nearest(this.offsets, offset);
    if (k + 1 < this.offsets.length && this.offsets[k + 1]! - offset < offset - this.offsets[k]!) return this.lineBelow(k + 1, offset);
    const [known, from] = [this.lines[k]!, this.offsets[k]!];
    const passed = newlinesBetween(this.text, from, offset);
    const line = known + passed;
    this.remember(line, passed === 0 ? from : this.text.lastIndexOf('\n', offset - 1) + 1);
    return line;
  }

  /** Start offset of a line; text.length past the last. */
  startOf(index: number): number {
    const k = this.nearest(this.lines, index);
    if (k + 1 < this.lines.length && this.lines[k + 1]! - index < index - this.lines[k]!) {
      let [line, pos] = [this.lines[k + 1]!, this.offsets[k + 1]!];
      while (line > index) [line, pos] = [line - 1, this.previousStart(pos)];
      this.remember(line, pos);
      return pos;
    }
    const pos = startAfterNewlines(this.text, this.offsets[k]!, index - this.lines[k]!);
    if (pos === -1) return this.text.length;
    this.remember(index, pos);
    return pos;
  }

  /** The line's text without its line ending ('\r' included for CRLF). */
  raw(index: number): string {
    const start = this.startOf(index);
    const nl = this.text.indexOf('\n', start);
    return this.text.slice(start, nl === -1 ? this.text.length : nl);
  }

  /** The line as diffs compare it: a last line without a newline is marked. */
  at(index: number): string {
    const start = this.startOf(index);
    const nl = this.text.indexOf('\n', start);
    if (nl !== -1) return this.text.slice(start, nl);
    return start < this.text.length ? this.text.slice(start) + NO_EOL : '';
  }

  /** The line of an offset nearer the known line start `up` above it than the one below: counted backwards. */
  private lineBelow(up: number, offset: number): number {
    let [line, pos] = [this.lines[up]!, this.offsets[up]!];
    while (pos > offset) [line, pos] = [line - 1, this.previousStart(pos)];
    this.remember(line, pos);
    return line;
  }

  /** The start of the line before the one starting at `start` (> 0). */
  private previousStart(start: number): number {
    return start >= 2 ? this.text.lastIndexOf('\n', start - 2) + 1 : 0;
  }

  /** Index of the last known entry at or below the value. */
  private nearest(sorted: readonly number[], value: number): number {
    let [lo, hi] = [0, sorted.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sorted[mid]! <= value) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private remember(line: number, offset: number): void {
    const last = this.lines.length - 1;
    // Questions asked in order (a diff's are) add past the end: no search, no insert.
    if (line > this.lines[last]!) {
      this.lines.push(line);
      this.offsets.push(offset);
      return;
    }
    const k = this.nearest(this.lines, line);
    if (this.lines[k] === line) return;
    this.lines.splice(k + 1, 0, line);
    this.offsets.splice(k + 1, 0, offset);
  }
}

// The two walks over a large file's lines are plain functions of a string and numbers: a loop
// inside a method is compiled on the stack, then thrown away at the method's first statement
// after it (no type feedback there yet), so a walk of 70,000 lines ran interpreted each time.

/** Newlines at offsets in [from, to). */
function newlinesBetween(text: string, from: number, to: number): number {
  let n = 0;
  for (let nl = text.indexOf('\n', from); nl !== -1 && nl < to; nl = text.indexOf('\n', nl + 1)) n++;
  return n;
}

/** The offset just past the `count`th newline at or after `from` (`from` itself for 0); -1 when there are fewer. */
function startAfterNewlines(text: string, from: number, count: number): number {
  let pos = from;
  for (let k = 0; k < count; k++) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) return -1;
    pos = nl + 1;
  }
  return pos;
}
