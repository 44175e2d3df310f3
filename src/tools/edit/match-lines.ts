// The line-level step of matching a search block, when its exact text is nowhere in the file:
// the block's lines are compared with growing tolerance (see line-keys.ts) and a level is
// accepted only when it matches one place. Candidates come from the rarest stable run of the
// search's characters, found with indexOf, so a miss costs a few scans, not a compare per line.
import type { Eol } from '../text/encoding.js';
import type { LineIndex } from '../text/line-index.js';
import { stripEachLineNumber, stripLineNumbers } from '../text/numbered.js';
import { closestCandidate } from './closest-candidate.js';
import { reindentReplacement, sameRelativeIndentation } from './indentation.js';
import { anchorToken, LEVELS, looseKey } from './line-keys.js';
import type { BlockMatch, EditBlock, EditWork } from './match-block.js';

const MAX_REPORTED = 10;

interface SearchLines {
  lines: string[];
  /** Blank lines trimmed around the search: the same blank lines around the replace go too. */
  leadingBlank: number;
  trailingBlank: number;
  /** The search carried read_file's line numbers (so the replace may carry them too). */
  numbered: boolean;
}

/** Levels from this one on forgive indentation: a match there must keep the file's relative indentation. */
const FORGIVES_INDENTATION = 1;
/** File lines around a match read for the file's indentation style. */
const STYLE_CONTEXT_LINES = 100;

export function matchLines(idx: LineIndex, block: EditBlock, eol: Eol, work: EditWork): BlockMatch {
  const search = searchLines(block.search);
  if (search.lines.length === 0) return { type: 'missing', candidate: undefined };
  const starts = looseStarts(idx, search.lines, work);
  for (const [level, same] of LEVELS.entries()) {
    let found = starts.filter((s) => search.lines.every((l, j) => same(idx.raw(s + j), l)));
    if (level >= FORGIVES_INDENTATION)
      found = found.filter((s) => sameRelativeIndentation(fileLinesAt(idx, s, search.lines.length), search.lines));
    if (found.length > 1) return { type: 'ambiguous', lines: found.slice(0, MAX_REPORTED).map((s) => s + 1) };
    if (found.length === 1) return lineMatch(idx, found[0]!, search, block.replace, eol, level >= FORGIVES_INDENTATION);
  }
  const misplaced = starts.find((s) => !sameRelativeIndentation(fileLinesAt(idx, s, search.lines.length), search.lines));
  if (misplaced !== undefined) return { type: 'indentation', line: misplaced + 1 };
  return { type: 'missing', candidate: closestCandidate(idx, search.lines, work) };
}

function fileLinesAt(idx: LineIndex, start: number, count: number): string[] {
  return Array.from({ length: count }, (_, j) => idx.raw(start + j).replace(/\r$/, ''));
}

/** A blank replace of whole lines deletes them (on the exact path too). */
export function deletesLines(replace: string): boolean {
  return replace.trim() === '';
}

function searchLines(search: string): SearchLines {
  const { lines, stripped } = stripLineNumbers(search.replace(/\r\n/g, '\n').split('\n'));
  const all = lines.length;
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const trailingBlank = all - lines.length;
  let leadingBlank = 0;
  while (leadingBlank < lines.length && lines[leadingBlank]!.trim() === '') leadingBlank++;
  return { lines: lines.slice(leadingBlank), leadingBlank, trailingBlank, numbered: stripped };
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

function lineMatch(idx: LineIndex, startLine: number, search: SearchLines, replace: string, eol: Eol, reindent: boolean): BlockMatch {
  const lastLine = startLine + search.lines.length - 1;
  const start = idx.startOf(startLine);
  if (deletesLines(replace)) {
    // Deleting whole lines: take their line endings too, so no blank line is left behind.
    return { type: 'match', start, end: idx.startOf(lastLine + 1), replacement: '', tolerant: true };
  }
  const given = replaceLines(replace, search);
  // Indentation forgiven: the replace is moved into the file's style; otherwise it is as written.
  const lines = reindent
    ? reindentReplacement(fileLinesAt(idx, startLine, search.lines.length), search.lines, given, contextOf(idx, startLine, lastLine))
    : given;
  return { type: 'match', start, end: idx.contentEndOf(lastLine), replacement: lines.join(eol), tolerant: true };
}

function contextOf(idx: LineIndex, first: number, last: number): string[] {
  const from = Math.max(0, first - STYLE_CONTEXT_LINES);
  return fileLinesAt(idx, from, Math.min(idx.length, last + STYLE_CONTEXT_LINES) - from);
}

/** The replace's lines, less the blank lines that mirror those trimmed around the search. */
function replaceLines(replace: string, search: SearchLines): string[] {
  const raw = replace.replace(/\r\n/g, '\n').split('\n');
  // Line numbers come off the replace only when the search carried read_file's: a replace of
  // its own may hold lines like "1 | x" or "1\tAlice" that are text.
  const lines = search.numbered ? stripEachLineNumber(raw) : raw;
  // A final newline ends the last line; it is not a line of its own.
  const trailing = Math.max(1, search.trailingBlank);
  for (let k = 0; k < trailing && lines.length > 1 && lines[lines.length - 1]!.trim() === ''; k++) lines.pop();
  let leading = 0;
  while (leading < search.leadingBlank && leading < lines.length - 1 && lines[leading]!.trim() === '') leading++;
  return lines.slice(leading);
}
