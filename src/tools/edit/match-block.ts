// Finds where one search/replace block applies. Exact text first (then without blank lines
// around it); then line by line with growing tolerance (match-lines.ts), accepted only when unique. Deleting whole lines takes
// their line endings on both paths, so no blank line is left behind.
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
  | { type: 'ambiguous'; lines: number[] };

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

/** The block less the search's leading and trailing blank lines, and as many around the replace. */
function withoutBlankLines(block: EditBlock): EditBlock | undefined {
  const search = block.search.replace(/\r\n/g, '\n').split('\n');
  let [from, to] = [0, search.length];
  while (from < to && search[from]!.trim() === '') from++;
  while (to > from && search[to - 1]!.trim() === '') to--;
  if (from === 0 && to === search.length) return undefined;
  const replace = block.replace.replace(/\r\n/g, '\n').split('\n');
  let [rFrom, rTo] = [0, replace.length];
  while (rFrom < from && rFrom < rTo && replace[rFrom]!.trim() === '') rFrom++;
  while (replace.length - rTo < search.length - to && rTo > rFrom && replace[rTo - 1]!.trim() === '') rTo--;
  return { search: search.slice(from, to).join('\n'), replace: replace.slice(rFrom, rTo).join('\n') };
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
