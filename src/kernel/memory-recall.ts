// Recall ranking, pure: word overlap with the query, then recency, then whether the record
// concerns a path the asker named. Expired records are left out; staleness (a concerned file
// changed since) is decided here from hashes the caller read.
import type { MemoryRecord, RecallHit, RecallQuery } from './contracts/memory.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Weights: overlap dominates; recency and path match break ties and lift near misses. */
const RECENCY_WEIGHT = 0.3;
const PATH_WEIGHT = 0.5;
/** Recency halves every this many days. */
const RECENCY_HALF_LIFE_DAYS = 30;

/** Lower-case words of two or more letters or digits; the unit of overlap. */
function memoryWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) if (w.length >= 2) words.add(w);
  return words;
}

function isExpired(record: MemoryRecord, now: number): boolean {
  return record.expires !== undefined && record.expires <= now;
}

/** Records ranked for the query, best first. A record needs a shared word or a matching path to count. */
export function rankMemories(records: readonly MemoryRecord[], query: RecallQuery): RecallHit[] {
  const queryWords = memoryWords(query.text);
  const paths = new Set(query.paths ?? []);
  const limit = Math.max(0, Math.floor(query.limit));
  // The best `limit` so far, best first: the whole list is never sorted.
  const best: RecallHit[] = [];
  for (const record of records) {
    if (isExpired(record, query.now)) continue;
    const overlap = overlapScore(queryWords, record);
    const pathMatch = paths.size > 0 && record.paths.some((p) => paths.has(p.path)) ? 1 : 0;
    if (overlap === 0 && pathMatch === 0) continue;
    const hit = { record, score: overlap + PATH_WEIGHT * pathMatch + RECENCY_WEIGHT * recency(record, query.now) };
    if (best.length === limit && (limit === 0 || !before(hit, best[limit - 1]!))) continue;
    let i = best.length === limit ? limit - 1 : best.length;
    while (i > 0 && before(hit, best[i - 1]!)) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = hit;
  }
  return best;
}

/** Higher score first; on a tie, the more recently used. */
function before(a: RecallHit, b: RecallHit): boolean {
  return a.score > b.score || (a.score === b.score && a.record.lastUsed > b.record.lastUsed);
}

/** Share of the query's words found in the record's text or tags (0..1). */
function overlapScore(queryWords: ReadonlySet<string>, record: MemoryRecord): number {
  if (queryWords.size === 0) return 0;
  const words = recordWords(record);
  let shared = 0;
  for (const w of queryWords) if (words.has(w)) shared++;
  return shared / queryWords.size;
}

/** Records are never changed in place (a change is a new record), so their words are kept. */
const wordsOf = new WeakMap<MemoryRecord, Set<string>>();

function recordWords(record: MemoryRecord): Set<string> {
  let words = wordsOf.get(record);
  if (!words) {
    words = memoryWords(`${record.text} ${record.tags.join(' ')}`);
    wordsOf.set(record, words);
  }
  return words;
}

/** 1 when used just now, halving every half-life. */
function recency(record: MemoryRecord, now: number): number {
  const ageDays = Math.max(0, now - Math.max(record.created, record.lastUsed)) / DAY_MS;
  return 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS);
}

/**
 * The concerned paths whose content changed since the record was made: `current` maps a path
 * to its hash now (null: gone). Paths missing from `current` were not checked and do not count.
 */
export function stalePaths(record: MemoryRecord, current: Readonly<Record<string, string | null>>): string[] {
  return record.paths.filter((p) => p.path in current && current[p.path] !== p.hash).map((p) => p.path);
}
