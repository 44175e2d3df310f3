// Finds where one search/replace block applies. Exact text first (then without blank lines
// around it); then line by line with growing tolerance (match-lines.ts), accepted only when
// unique. Deleting whole lines takes their line endings on both paths, so no blank line is
// left behind.
import type { Eol } from '../text/encoding.js';
import type { LineIndex, LineLookup } from '../text/line-index.js';
import type { Candidate } from './closest-candidate.js';
import type { Occurrences } from './exact-occurrences.js';
import { deletesLines, matchLines } from './match-lines.js';

export interface EditBlock {
  search: string;
  replace: string;
}

export type BlockMatch =
  | { type: 'match'; start: number; end: number; replacement: string; tolerant: boolean }
  | { type: 'missing'; candidate: Candidate | undefined }
  | { type: 'ambiguous'; lines: number[] }
  /** The lines match but step in and out differently from the file's (1-based first line). */
  | { type: 'indentation'; line: number };

/** The file's lines: every line's offset (for the line-level steps), or whatever is already known (line numbers, the diff). */
export interface EditLines {
  full(): LineIndex;
  any(): LineLookup;
}

/** Work done by the line-level steps, counted so tests can bound it without a clock. */
export interface EditWork {
  linesCompared: number;
}

export function matchBlock(
  text: string,
  index: EditLines,
  block: EditBlock,
  eol: Eol,
  work: EditWork,
  occurrences: Occurrences,
): BlockMatch {
  const exact = matchExact(text, index, block, eol, false, occurrences);
  if (exact) return exact;
  // Blank lines around the search that the file does not have: the text between them, exactly.
  const inner = withoutBlankLines(block);
  const framed = inner && matchExact(text, index, inner, eol, true, occurrences);
  if (framed?.type === 'match') return framed;
  const lines = matchLines(index.full(), block, eol, work);
  return lines.type === 'missing' && framed ? framed : lines;
}

function matchExact(
  text: string,
  index: EditLines,
  block: EditBlock,
  eol: Eol,
  tolerant: boolean,
  occurrences: Occurrences,
): BlockMatch | undefined {
  const search = toEol(block.search, eol);
  const starts = occurrences(search);
  if (starts.length === 0) return undefined;
  if (starts.length > 1) return { type: 'ambiguous', lines: starts.map((s) => index.any().lineOf(s) + 1) };
  const first = starts[0]!;
  const end = first + search.length;
  if (deletesLines(block.replace) && coversWholeLines(text, first, end, search))
    return { type: 'match', start: first, end: afterLineEnd(text, end), replacement: '', tolerant };
  return { type: 'match', start: first, end, replacement: toEol(block.replace, eol), tolerant };
}

/**
 * The block less the blank lines before and after the search's text (a final newline only ends
 * the last line), and as many blank lines around the replace; undefined when there are none.
 */
function withoutBlankLines(block: EditBlock): EditBlock | undefined {
  const search = linesOf(block.search);
  let [from, to] = [0, search.lines.length];
  while (from < to && search.lines[from]!.trim() === '') from++;
  while (to > from && search.lines[to - 1]!.trim() === '') to--;
  const trailing = search.lines.length - to;
  if (from === 0 && trailing === 0) return undefined;
  const replace = linesOf(block.replace);
  let [rFrom, rTo] = [0, replace.lines.length];
  while (rFrom < from && rFrom < rTo && replace.lines[rFrom]!.trim() === '') rFrom++;
  while (replace.lines.length - rTo < trailing && rTo > rFrom && replace.lines[rTo - 1]!.trim() === '') rTo--;
  // The search still ends its last line when no blank line followed it.
  const newline = search.newline && trailing === 0;
  return {
    search: search.lines.slice(from, to).join('\n') + (newline ? '\n' : ''),
    replace: replace.lines.slice(rFrom, rTo).join('\n') + (newline && replace.newline ? '\n' : ''),
  };
}

function linesOf(text: string): { lines: string[]; newline: boolean } {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const newline = lines.length > 1 && lines[lines.length - 1] === '';
  return { lines: newline ? lines.slice(0, -1) : lines, newline };
}

/** The match starts a line and ends one's content (not its line ending, which it leaves). */
function coversWholeLines(text: string, start: number, end: number, search: string): boolean {
  if (search.endsWith('\n')) return false;
  if (start > 0 && text.charCodeAt(start - 1) !== 10) return false;
  return end === text.length || text.charCodeAt(end) === 10 || text.startsWith('\r\n', end);
}

function afterLineEnd(text: string, end: number): number {
  if (text.startsWith('\r\n', end)) return end + 2;
  return text.charCodeAt(end) === 10 ? end + 1 : end;
}

export function toEol(s: string, eol: Eol): string {
  const lf = s.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}
