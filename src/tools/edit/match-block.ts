// Finds where one search/replace block applies. Exact text first (then without blank lines
// around it); then line by line with growing tolerance (match-lines.ts), accepted only when
// unique. Deleting whole lines takes their line endings on both paths, so no blank line is
// left behind.
import type { Eol } from '../text/encoding.js';
import type { LineIndex } from '../text/line-index.js';
import type { Candidate } from './closest-candidate.js';
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

/** Work done by the line-level steps, counted so tests can bound it without a clock. */
export interface EditWork {
  linesCompared: number;
}

const MAX_REPORTED = 10;

export function matchBlock(text: string, index: () => LineIndex, block: EditBlock, eol: Eol, work: EditWork): BlockMatch {
  const exact = matchExact(text, index, block, eol, false);
  if (exact) return exact;
  // Blank lines around the search that the file does not have: the text between them, exactly.
  const inner = withoutBlankLines(block);
  const framed = inner && matchExact(text, index, inner, eol, true);
  if (framed?.type === 'match') return framed;
  const lines = matchLines(index(), block, eol, work);
  return lines.type === 'missing' && framed ? framed : lines;
}

function matchExact(text: string, index: () => LineIndex, block: EditBlock, eol: Eol, tolerant: boolean): BlockMatch | undefined {
  const search = toEol(block.search, eol);
  const first = text.indexOf(search);
  if (first === -1) return undefined;
  const starts = occurrences(text, search, first);
  if (starts.length > 1) return { type: 'ambiguous', lines: starts.map((s) => index().lineOf(s) + 1) };
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

function occurrences(text: string, search: string, first: number): number[] {
  const starts = [first];
  for (let i = text.indexOf(search, first + 1); i !== -1 && starts.length < MAX_REPORTED; i = text.indexOf(search, i + 1)) {
    starts.push(i);
  }
  return starts;
}

function toEol(s: string, eol: Eol): string {
  const lf = s.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}
