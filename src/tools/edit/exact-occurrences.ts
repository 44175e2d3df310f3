// Where each block's exact text occurs, for all blocks of an edit in one pass over the file when
// that is provably the same answer: one regular expression of the blocks' texts as alternatives
// reports non-overlapping leftmost matches, so it misses an occurrence only when it lies inside
// or across another reported match. That needs one block's text inside another's, or a text
// whose end is another's start (itself included); when no pair of blocks is like that, the one
// pass finds every occurrence of every block. Otherwise, and for one block, each is found with
// indexOf. A 20-block edit of a 100,000-line file thus scans it once, not forty times.

/** Enough places to show an ambiguous block; more are not needed. */
const MAX_OCCURRENCES = 10;
/** Past this much search text, compiling one expression costs more than it saves. */
const MAX_COMBINED_CHARS = 64 * 1024;

export type Occurrences = (search: string) => number[];

export function exactOccurrences(text: string, searches: readonly string[]): Occurrences {
  const cache = new Map<string, number[]>();
  const distinct = [...new Set(searches.filter((s) => s !== ''))];
  if (distinct.length >= 2 && distinct.reduce((n, s) => n + s.length, 0) <= MAX_COMBINED_CHARS && !anyOverlap(distinct))
    onePass(text, distinct, cache);
  return (search) => {
    let found = cache.get(search);
    if (!found) cache.set(search, (found = byIndexOf(text, search)));
    return found;
  };
}

function byIndexOf(text: string, search: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf(search); i !== -1 && starts.length < MAX_OCCURRENCES; i = text.indexOf(search, i + 1)) starts.push(i);
  return starts;
}

function onePass(text: string, searches: readonly string[], into: Map<string, number[]>): void {
  for (const s of searches) into.set(s, []);
  const re = new RegExp(searches.map(literal).join('|'), 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const starts = into.get(m[0])!;
    if (starts.length < MAX_OCCURRENCES) starts.push(m.index);
  }
}

function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** True when some text contains another, or some text's end is the start of one (itself included). */
function anyOverlap(texts: readonly string[]): boolean {
  for (const a of texts) for (const b of texts) if ((a !== b && a.includes(b)) || endJoinsStart(a, b)) return true;
  return false;
}

/** A proper suffix of a that is a prefix of b. */
function endJoinsStart(a: string, b: string): boolean {
  const from = Math.max(1, a.length - b.length + 1);
  for (let i = a.indexOf(b[0]!, from); i !== -1; i = a.indexOf(b[0]!, i + 1)) if (b.startsWith(a.slice(i))) return true;
  return false;
}
