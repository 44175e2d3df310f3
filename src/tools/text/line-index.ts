// Line offsets of a text, computed once, so edits and diffs can address lines without splitting
// a 10,000-line file again and again.

/** Marks a last line that has no newline, so that adding one shows as a change. */
export const NO_EOL = '\u0000noeol';

export interface LineSource {
  readonly length: number;
  at(index: number): string;
  /** min(length, n): a diff's context needs to know whether the lines after a change exist, not how many there are. */
  linesUpTo(n: number): number;
}

/** What diffs and line numbers need of a text's lines: LineIndex (every offset) or SparseLines (on demand). */
export interface LineLookup extends LineSource {
  readonly text: string;
  lineOf(offset: number): number;
  startOf(index: number): number;
}

export class LineIndex implements LineLookup {
  /** Start offset of every line, plus text.length when the text ends with a newline (a typed array: no boxed numbers to build). */
  private readonly starts: Int32Array;
  private readonly count: number;
  readonly length: number;

  constructor(readonly text: string) {
    [this.starts, this.count] = lineStarts(text);
    this.length = text.length && text.endsWith('\n') ? this.count - 1 : this.count;
  }

  /** The line's text without its line ending ('\r' included for CRLF). */
  raw(index: number): string {
    const start = this.startAt(index) ?? this.text.length;
    const next = this.startAt(index + 1);
    return next === undefined ? this.text.slice(start) : this.text.slice(start, next - 1);
  }

  /** The line as diffs compare it: a last line without a newline is marked. */
  at(index: number): string {
    return index === this.length - 1 && !this.text.endsWith('\n') ? this.raw(index) + NO_EOL : this.raw(index);
  }

  /** Start offset of a line; text.length for the line after the last. */
  startOf(index: number): number {
    return this.startAt(index) ?? this.text.length;
  }

  linesUpTo(n: number): number {
    return Math.min(this.length, n);
  }

  /** Offset just past the line's content, before its '\r\n' or '\n'. */
  contentEndOf(index: number): number {
    const next = this.startAt(index + 1);
    if (next === undefined) return this.text.length;
    return next >= 2 && this.text.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
  }

  private startAt(index: number): number | undefined {
    return index >= 0 && index < this.count ? this.starts[index] : undefined;
  }

  /** 0-based line containing the offset. */
  lineOf(offset: number): number {
    let [lo, hi] = [0, this.count - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/**
 * Every line's start and how many there are. A plain function, not the constructor's body: V8
 * compiles a long loop on the stack and drops that code at the first statement after the loop
 * it has no type feedback for, so inside the constructor the walk ran interpreted on each call.
 */
function lineStarts(text: string): [Int32Array, number] {
  let starts = new Int32Array(1024);
  let n = 0;
  if (text.length) starts[n++] = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (n === starts.length) {
      const grown = new Int32Array(n * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[n++] = i + 1;
  }
  return [starts, n];
}

export function arrayLines(lines: readonly string[]): LineSource {
  return { length: lines.length, at: (i) => lines[i]!, linesUpTo: (n) => Math.min(lines.length, n) };
}
