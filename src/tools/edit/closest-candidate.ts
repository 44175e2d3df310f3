// When a search block matches nowhere, show the model the closest place, so it can fix the
// block in one go instead of re-reading the whole file. Only places that share a rare word
// with the search are scored (each word found with indexOf, common words skipped early), so
// a miss in a 100,000-line file costs a few scans, not a similarity per line.
import type { LineIndex } from '../text/line-index.js';
import type { EditWork } from './match-block.js';

export interface Candidate {
  /** 1-based first line. */
  line: number;
  /** 0..1 */
  similarity: number;
  lines: string[];
}

/** Search lines scored against the file. */
const WINDOW = 6;
/** Distinct words of the search looked up in the file (each costs at most one scan). */
const MAX_WORDS = 16;
/** A word found on more lines than this says little about where the block was meant to be. */
const COMMON = 64;
/** Places scored, those most words point at first. */
const MAX_PLACES = 16;
/** Search lines shorter than this vote by their words, not whole. */
const MIN_LINE_CHARS = 12;
/** Lines a place may be off by, when the model dropped or added a line above. */
const SHIFT = 2;

export function closestCandidate(idx: LineIndex, search: readonly string[], work: EditWork): Candidate | undefined {
  if (idx.length === 0 || search.length === 0) return undefined;
  const probe = search.slice(0, WINDOW).map((l) => bigrams(l.trim()));
  const fileGrams = new Map<number, Map<string, number>>();
  const gramsAt = (i: number) => {
    let g = fileGrams.get(i);
    if (!g) fileGrams.set(i, (g = bigrams(idx.raw(i).trim())));
    return g;
  };
  let best = { line: -1, score: -1 };
  for (const place of places(idx, search)) {
    for (let s = Math.max(0, place - SHIFT); s <= Math.min(idx.length - 1, place + SHIFT); s++) {
      let score = 0;
      for (let j = 0; j < probe.length && s + j < idx.length; j++) {
        work.linesCompared++;
        score += dice(gramsAt(s + j), probe[j]!);
      }
      if (score > best.score || (score === best.score && s < best.line)) best = { line: s, score };
    }
  }
  if (best.line < 0) return undefined;
  const count = Math.min(search.length, 30, idx.length - best.line);
  const lines = Array.from({ length: count }, (_, k) => idx.raw(best.line + k).replace(/\r$/, ''));
  return { line: best.line + 1, similarity: best.score / probe.length, lines };
}

/**
 * First lines of the places the search points at, most votes first: where its lines stand
 * whole, or else where its rare words are. Each search line votes once, with its longest word
 * found on a few lines of the file (the rarest lines anchor the place; a line whose words are
 * all new or all common does not vote).
 */
function places(idx: LineIndex, search: readonly string[]): number[] {
  const votes = lineVotes(idx, search);
  if (votes.size === 0) wordVotes(idx, search, votes);
  return [...votes]
    .filter(([s]) => s > -search.length && s < idx.length)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_PLACES)
    .map(([s]) => Math.max(0, s));
}

/**
 * Places where whole search lines stand unchanged, the longest lines first: a long pattern is
 * found with few comparisons (a short word, all digits or common letters, costs a slow scan).
 */
function lineVotes(idx: LineIndex, search: readonly string[]): Map<number, number> {
  const votes = new Map<number, number>();
  const longest = search
    .map((line, j) => ({ text: line.trim(), j }))
    .filter((l) => l.text.length >= MIN_LINE_CHARS)
    .sort((a, b) => b.text.length - a.text.length)
    .slice(0, WINDOW);
  for (const { text, j } of longest) {
    const hits = linesWith(idx, text, COMMON + 1);
    if (hits.length > COMMON) continue;
    for (const at of hits) votes.set(at - j, (votes.get(at - j) ?? 0) + 1);
  }
  return votes;
}

function wordVotes(idx: LineIndex, search: readonly string[], votes: Map<number, number>): void {
  const found = new Map<string, number[]>();
  let commonest: number[] | undefined;
  search.forEach((line, j) => {
    for (const word of wordsOf(line)) {
      let hits = found.get(word);
      if (!hits) {
        if (found.size >= MAX_WORDS) return;
        found.set(word, (hits = linesWith(idx, word, COMMON + 1)));
      }
      if (hits.length > COMMON) commonest ??= hits;
      if (hits.length === 0 || hits.length > COMMON) continue;
      for (const at of hits) votes.set(at - j, (votes.get(at - j) ?? 0) + 1);
      return;
    }
  });
  // Every word is common: the first places of the longest one are still better than no hint.
  if (votes.size === 0 && commonest) for (const at of commonest.slice(0, MAX_PLACES)) votes.set(at, 1);
}

/** A line's distinct words of 3+ characters, longest first. */
function wordsOf(line: string): string[] {
  return [...new Set(line.match(/[\p{L}\p{N}_]{3,}/gu) ?? [])].sort((a, b) => b.length - a.length);
}

/** Lines containing `word`, at most `max` of them. */
function linesWith(idx: LineIndex, word: string, max: number): number[] {
  const lines: number[] = [];
  for (let at = idx.text.indexOf(word); at !== -1 && lines.length < max; ) {
    const line = idx.lineOf(at);
    lines.push(line);
    at = idx.text.indexOf(word, idx.startOf(line + 1));
  }
  return lines;
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  if (s.length === 1) m.set(s, 1);
  return m;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  let total = 0;
  for (const [g, n] of a) {
    common += Math.min(n, b.get(g) ?? 0);
    total += n;
  }
  for (const n of b.values()) total += n;
  return total === 0 ? 0 : (2 * common) / total;
}
