// When a search block matches nowhere, show the model the closest place, so it can fix the
// block in one go instead of re-reading the whole file.
import type { LineIndex } from '../text/line-index.js';

export interface Candidate {
  /** 1-based first line. */
  line: number;
  /** 0..1 */
  similarity: number;
  lines: string[];
}

const WINDOW = 6;

export function closestCandidate(idx: LineIndex, search: readonly string[]): Candidate | undefined {
  const probe = search.slice(0, WINDOW).map((l) => l.trim());
  if (idx.length === 0) return undefined;
  const grams = probe.map(bigrams);
  const fileGrams: Map<string, number>[] = [];
  const gramsAt = (i: number) => (fileGrams[i] ??= bigrams(idx.raw(i).trim()));
  let best = { line: 0, score: -1 };
  for (let i = 0; i < idx.length; i++) {
    let score = 0;
    for (let j = 0; j < probe.length && i + j < idx.length; j++) score += dice(gramsAt(i + j), grams[j]!);
    if (score > best.score) best = { line: i, score };
  }
  const count = Math.min(search.length, 30, idx.length - best.line);
  const lines = Array.from({ length: count }, (_, k) => idx.raw(best.line + k).replace(/\r$/, ''));
  return { line: best.line + 1, similarity: best.score / probe.length, lines };
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
