// Finds where one search/replace block applies. Exact text first; then line by line with
// growing tolerance (trailing whitespace and CR, then indentation), accepted only when unique.
import type { Eol } from '../text/encoding.js';
import type { LineIndex } from '../text/line-index.js';
import { stripLineNumbers } from '../text/numbered.js';
import { closestCandidate, type Candidate } from './closest-candidate.js';

export interface EditBlock {
  search: string;
  replace: string;
}

export type BlockMatch =
  | { type: 'match'; start: number; end: number; replacement: string; tolerant: boolean }
  | { type: 'missing'; candidate: Candidate | undefined }
  | { type: 'ambiguous'; lines: number[] };

const MAX_REPORTED = 10;

export function matchBlock(text: string, index: () => LineIndex, block: EditBlock, eol: Eol): BlockMatch {
  const search = toEol(block.search, eol);
  const first = text.indexOf(search);
  if (first !== -1) {
    const starts = occurrences(text, search, first);
    if (starts.length > 1) return { type: 'ambiguous', lines: starts.map((s) => index().lineOf(s) + 1) };
    return { type: 'match', start: first, end: first + search.length, replacement: toEol(block.replace, eol), tolerant: false };
  }
  return matchLines(index(), block, eol);
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

type Compare = (fileLine: string, searchLine: string) => boolean;
const LEVELS: Compare[] = [(a, b) => a.trimEnd() === b.trimEnd(), (a, b) => a.trim() === b.trim()];

function matchLines(idx: LineIndex, block: EditBlock, eol: Eol): BlockMatch {
  const search = searchLines(block.search);
  if (search.length === 0) return { type: 'missing', candidate: undefined };
  for (const same of LEVELS) {
    const starts = findStarts(idx, search, same);
    if (starts.length > 1) return { type: 'ambiguous', lines: starts.map((s) => s + 1) };
    if (starts.length === 1) return lineMatch(idx, starts[0]!, search, block.replace, eol);
  }
  return { type: 'missing', candidate: closestCandidate(idx, search) };
}

function searchLines(search: string): string[] {
  const lines = stripLineNumbers(search.replace(/\r\n/g, '\n').split('\n')).lines;
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines;
}

function findStarts(idx: LineIndex, search: string[], same: Compare): number[] {
  const starts: number[] = [];
  const last = idx.length - search.length;
  for (let i = 0; i <= last && starts.length < MAX_REPORTED; i++) {
    let j = 0;
    while (j < search.length && same(idx.raw(i + j), search[j]!)) j++;
    if (j === search.length) starts.push(i);
  }
  return starts;
}

function lineMatch(idx: LineIndex, startLine: number, search: string[], replace: string, eol: Eol): BlockMatch {
  const lastLine = startLine + search.length - 1;
  let lines = stripLineNumbers(replace.replace(/\r\n/g, '\n').split('\n')).lines;
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  lines = reindent(lines, idx, startLine, search);
  const start = idx.startOf(startLine);
  if (replace.trim() === '') {
    // Deleting whole lines: take their line endings too, so no blank line is left behind.
    return { type: 'match', start, end: idx.startOf(lastLine + 1), replacement: '', tolerant: true };
  }
  return { type: 'match', start, end: idx.contentEndOf(lastLine), replacement: lines.join(eol), tolerant: true };
}

/** Moves the replacement by the indentation the search text was off by. */
function reindent(lines: string[], idx: LineIndex, startLine: number, search: string[]): string[] {
  const j = search.findIndex((l) => l.trim() !== '');
  if (j < 0) return lines;
  const fileIndent = leading(idx.raw(startLine + j));
  const searchIndent = leading(search[j]!);
  if (fileIndent === searchIndent) return lines;
  return lines.map((l) => (l.trim() !== '' && l.startsWith(searchIndent) ? fileIndent + l.slice(searchIndent.length) : l));
}

function leading(s: string): string {
  return /^[ \t]*/.exec(s)![0];
}
