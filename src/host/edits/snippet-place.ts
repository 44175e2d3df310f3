// Where a code block from an answer goes in a file (Apply): a snippet replaces the part of the file
// it is a new version of — the function, method or block whose first line it starts with — not
// the whole file. The match is by lines: the snippet's first line (or its signature: the text up
// to the first bracket) names where it starts, the file's own brackets (or, without any, its
// indentation) say where that part ends. One match is used; none or several are handed back
// for the user to choose. No vscode: unit-tested on Node.

export interface LineRange {
  /** 0-based first and last line (inclusive) of the file the block replaces. */
  from: number;
  to: number;
  /** The file's first line of that range, trimmed, to name it in a question. */
  label: string;
}

export type Placement =
  /** The block is the whole file (its first and last lines are the file's). */
  | { kind: 'whole' }
  | { kind: 'range'; range: LineRange }
  /** Several places start like the block: the user picks one. */
  | { kind: 'ambiguous'; ranges: LineRange[] }
  /** Nothing in the file starts like the block. */
  | { kind: 'none' };

const OPEN = new Set(['{', '(', '[']);
const CLOSE = new Set(['}', ')', ']']);

const firstNonBlank = (lines: readonly string[]): number => lines.findIndex((l) => l.trim() !== '');
const lastNonBlank = (lines: readonly string[]): number => lines.findLastIndex((l) => l.trim() !== '');
const indentOf = (line: string): string => /^\s*/.exec(line)![0];

/** "function discount(cents) {" → "function discount(": what names a definition. */
function signature(line: string): string {
  const t = line.trim();
  const cut = t.search(/[({=:]/);
  return cut > 0 ? t.slice(0, cut + 1) : t;
}

/** Bracket depth after a line, from `depth` before it. */
function depthAfter(line: string, depth: number): number {
  let d = depth;
  for (const ch of line) {
    if (OPEN.has(ch)) d++;
    else if (CLOSE.has(ch)) d--;
  }
  return d;
}

/**
 * The last line of the part that starts at `start`: where the brackets its first line leaves
 * open close again; a first line that opens none (`def a():`) ends where its indented body does.
 */
function partEnd(lines: readonly string[], start: number): number {
  let depth = depthAfter(lines[start]!, 0);
  if (depth > 0) {
    for (let i = start + 1; i < lines.length; i++) {
      depth = depthAfter(lines[i]!, depth);
      if (depth <= 0) return i;
    }
    return lines.length - 1;
  }
  const base = indentOf(lines[start]!).length;
  let end = start;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    if (indentOf(lines[i]!).length <= base) break;
    end = i;
  }
  return end;
}

export function placeSnippet(fileText: string, snippet: string): Placement {
  const file = fileText.split(/\r?\n/);
  const block = snippet.split(/\r?\n/);
  const [bf, bl, ff, fl] = [firstNonBlank(block), lastNonBlank(block), firstNonBlank(file), lastNonBlank(file)];
  if (bf < 0) return { kind: 'none' };
  if (ff < 0) return { kind: 'whole' };
  const same = (a: string, b: string) => a.trim() === b.trim();
  if (same(block[bf]!, file[ff]!) && same(block[bl]!, file[fl]!) && bl - bf >= (fl - ff) / 2) return { kind: 'whole' };
  const head = block[bf]!;
  let starts = file.flatMap((line, i) => (same(line, head) ? [i] : []));
  if (starts.length === 0) {
    const sig = signature(head);
    // A signature must say something: at least a word and a bracket or an `=`.
    if (sig.length >= 4 && sig !== head.trim()) starts = file.flatMap((line, i) => (line.trim().startsWith(sig) ? [i] : []));
  }
  const ranges = starts.map((from) => ({ from, to: partEnd(file, from), label: file[from]!.trim() }));
  if (ranges.length === 0) return { kind: 'none' };
  if (ranges.length > 1) return { kind: 'ambiguous', ranges };
  return { kind: 'range', range: ranges[0]! };
}

/**
 * The file with lines `range` replaced by the block, the block moved to the range's indentation
 * (a method pasted flush left goes back into its class). Line endings follow the file's.
 */
export function replaceRange(fileText: string, range: Pick<LineRange, 'from' | 'to'>, snippet: string): string {
  const eol = fileText.includes('\r\n') ? '\r\n' : '\n';
  const file = fileText.split(/\r?\n/);
  const block = snippet.replace(/\s+$/, '').split(/\r?\n/);
  const want = indentOf(file[range.from]!);
  const have = indentOf(block[firstNonBlank(block)] ?? '');
  const moved = want.length > have.length ? block.map((l) => (l.trim() === '' ? l : want.slice(have.length) + l)) : block;
  return [...file.slice(0, range.from), ...moved, ...file.slice(range.to + 1)].join(eol);
}

/**
 * What Insert puts at the cursor: a code block is lines. Inserted where a line starts (or a block
 * of several lines anywhere), it ends with a line break when text follows on that line — else `}`
 * lands before `'use strict';` — and a block of several lines starts on a line of its own. A
 * one-line block typed into the middle of a line stays inline.
 */
export function insertionText(block: string, before: string, after: string): string {
  const lines = block.includes('\n');
  const atLineStart = before.trim() === '';
  let text = lines && !atLineStart ? `\n${block}` : block;
  if ((lines || atLineStart) && after.trim() !== '' && !text.endsWith('\n')) text += '\n';
  return text;
}
