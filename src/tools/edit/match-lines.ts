// The line-level step of matching a search block, when its exact text is nowhere in the file:
// the block's lines are compared with growing tolerance (see line-keys.ts) and a level is
// accepted only when it matches one place. Candidates come from the rarest stable run of the
// search's characters, found with indexOf, so a miss costs a few scans, not a compare per line.
import type { Eol } from '../text/encoding.js';
import type { LineIndex } from '../text/line-index.js';
import { stripLineNumbers } from '../text/numbered.js';
import { closestCandidate } from './closest-candidate.js';
import { anchorToken, LEVELS, looseKey } from './line-keys.js';
import type { BlockMatch, EditBlock, EditWork } from './match-block.js';

const MAX_REPORTED = 10;

interface SearchLines {
  lines: string[];
  /** Blank lines trimmed around the search: the same blank lines around the replace go too. */
  leadingBlank: number;
  trailingBlank: number;
}

export function matchLines(idx: LineIndex, block: EditBlock, eol: Eol, work: EditWork): BlockMatch {
  const search = searchLines(block.search);
  if (search.lines.length === 0) return { type: 'missing', candidate: undefined };
  const starts = looseStarts(idx, search.lines, work);
  for (const same of LEVELS) {
    const found = starts.filter((s) => search.lines.every((l, j) => same(idx.raw(s + j), l)));
    if (found.length > 1) return { type: 'ambiguous', lines: found.slice(0, MAX_REPORTED).map((s) => s + 1) };
    if (found.length === 1) return lineMatch(idx, found[0]!, search, block.replace, eol);
  }
  return { type: 'missing', candidate: closestCandidate(idx, search.lines, work) };
}

/** A blank replace of whole lines deletes them (on the exact path too). */
export function deletesLines(replace: string): boolean {
  return replace.trim() === '';
}

function searchLines(search: string): SearchLines {
  const lines = stripLineNumbers(search.replace(/\r\n/g, '\n').split('\n')).lines;
  const all = lines.length;
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const trailingBlank = all - lines.length;
  let leadingBlank = 0;
  while (leadingBlank < lines.length && lines[leadingBlank]!.trim() === '') leadingBlank++;
  return { lines: lines.slice(leadingBlank), leadingBlank, trailingBlank };
}

/**
 * Every start where all search lines match at the loosest level (a superset of the stricter
 * levels, so not capped: a stricter level may single out any one of them).
 */
function looseStarts(idx: LineIndex, search: readonly string[], work: EditWork): number[] {
  const keys = search.map(looseKey);
  const matchesAt = (s: number) => {
    for (let j = 0; j < keys.length; j++) {
      work.linesCompared++;
      if (looseKey(idx.raw(s + j)) !== keys[j]) return false;
    }
    return true;
  };
  const last = idx.length - search.length;
  const tokens = search.map(anchorToken);
  const a = tokens.reduce((best, t, j) => (t.length > tokens[best]!.length ? j : best), 0);
  const starts: number[] = [];
  if (tokens[a] === '') {
    // Only quotes, dashes and dots to anchor on: compare at every line.
    for (let s = 0; s <= last; s++) if (matchesAt(s)) starts.push(s);
    return starts;
  }
  const { text } = idx;
  for (let at = text.indexOf(tokens[a]!); at !== -1; ) {
    const line = idx.lineOf(at);
    const s = line - a;
    if (s >= 0 && s <= last && matchesAt(s)) starts.push(s);
    at = text.indexOf(tokens[a]!, idx.startOf(line + 1));
  }
  return starts;
}

function lineMatch(idx: LineIndex, startLine: number, search: SearchLines, replace: string, eol: Eol): BlockMatch {
  const lastLine = startLine + search.lines.length - 1;
  const start = idx.startOf(startLine);
  if (deletesLines(replace)) {
    // Deleting whole lines: take their line endings too, so no blank line is left behind.
    return { type: 'match', start, end: idx.startOf(lastLine + 1), replacement: '', tolerant: true };
  }
  const lines = reindent(replaceLines(replace, search), idx, startLine, search.lines);
  return { type: 'match', start, end: idx.contentEndOf(lastLine), replacement: lines.join(eol), tolerant: true };
}

/** The replace's lines, less the blank lines that mirror those trimmed around the search. */
function replaceLines(replace: string, search: SearchLines): string[] {
  const lines = stripLineNumbers(replace.replace(/\r\n/g, '\n').split('\n')).lines;
  // A final newline ends the last line; it is not a line of its own.
  const trailing = Math.max(1, search.trailingBlank);
  for (let k = 0; k < trailing && lines.length > 1 && lines[lines.length - 1]!.trim() === ''; k++) lines.pop();
  let leading = 0;
  while (leading < search.leadingBlank && leading < lines.length - 1 && lines[leading]!.trim() === '') leading++;
  return lines.slice(leading);
}

/** Moves the replacement by the indentation the search text was off by. */
function reindent(lines: string[], idx: LineIndex, startLine: number, search: readonly string[]): string[] {
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
