// A fast line diff. Myers (the `diff` package) over a whole 10,000-line file costs tens of ms,
// so we first trim the common prefix and suffix, then pin lines that occur exactly once on both
// sides (patience anchors) and run Myers only on the small gaps between anchors.
import { diffArrays } from 'diff';

/** Gaps this small are diffed with a plain LCS table: cheaper than a call into Myers. */
const SMALL_GAP = 256;

/** Old lines [oldStart, oldEnd) were replaced by new lines [newStart, newEnd). */
export interface LineChange {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

export function diffLineArrays(a: readonly string[], b: readonly string[]): LineChange[] {
  const out: LineChange[] = [];
  diffRegion(a, b, 0, a.length, 0, b.length, out, true);
  return out;
}

function diffRegion(
  a: readonly string[],
  b: readonly string[],
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  out: LineChange[],
  useAnchors: boolean,
): void {
  while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) [a0, b0] = [a0 + 1, b0 + 1];
  while (a1 > a0 && b1 > b0 && a[a1 - 1] === b[b1 - 1]) [a1, b1] = [a1 - 1, b1 - 1];
  if (a0 === a1 && b0 === b1) return;
  // One side empty, or one line for one (they differ, or the trim above took them): a single change.
  if (a0 === a1 || b0 === b1 || (a1 - a0 === 1 && b1 - b0 === 1)) {
    out.push({ oldStart: a0, oldEnd: a1, newStart: b0, newEnd: b1 });
    return;
  }
  if ((a1 - a0) * (b1 - b0) <= SMALL_GAP) {
    smallLcs(a, b, a0, a1, b0, b1, out);
    return;
  }
  const anchors = useAnchors ? uniqueAnchors(a, b, a0, a1, b0, b1) : [];
  if (anchors.length === 0) {
    myers(a, b, a0, a1, b0, b1, out);
    return;
  }
  let [pa, pb] = [a0, b0];
  for (const [ia, ib] of anchors) {
    diffRegion(a, b, pa, ia, pb, ib, out, false);
    [pa, pb] = [ia + 1, ib + 1];
  }
  diffRegion(a, b, pa, a1, pb, b1, out, false);
}

/** Pairs of lines unique in both ranges, longest increasing in both positions. */
function uniqueAnchors(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number): [number, number][] {
  // One number per distinct line keeps this allocation-light: >= 0 is the only index in a,
  // -1 means seen twice in a; in b, a second sighting is marked by flipping to -2.
  const inA = new Map<string, number>();
  for (let i = a0; i < a1; i++) inA.set(a[i]!, inA.has(a[i]!) ? -1 : i);
  const inB = new Map<string, number>();
  for (let j = b0; j < b1; j++) {
    const line = b[j]!;
    if ((inA.get(line) ?? -1) < 0) continue;
    inB.set(line, inB.has(line) ? -2 : j);
  }
  const pairs: [number, number][] = [];
  for (let i = a0; i < a1; i++) {
    const j = inB.get(a[i]!);
    if (j !== undefined && j >= 0 && inA.get(a[i]!) === i) pairs.push([i, j]);
  }
  return longestIncreasing(pairs);
}

function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = [];
  const prev = new Array<number>(pairs.length).fill(-1);
  for (let i = 0; i < pairs.length; i++) {
    let [lo, hi] = [0, tails.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < pairs[i]![1]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const result: [number, number][] = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) result.push(pairs[k]!);
  return result.reverse();
}

function myers(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number, out: LineChange[]): void {
  const parts = diffArrays(a.slice(a0, a1), b.slice(b0, b1));
  let [i, j] = [a0, b0];
  let open: LineChange | undefined;
  for (const p of parts) {
    const n = p.count ?? p.value.length;
    if (!p.added && !p.removed) {
      if (open) out.push(open);
      open = undefined;
      [i, j] = [i + n, j + n];
      continue;
    }
    open ??= { oldStart: i, oldEnd: i, newStart: j, newEnd: j };
    if (p.removed) open.oldEnd = i += n;
    else open.newEnd = j += n;
  }
  if (open) out.push(open);
}

function smallLcs(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number, out: LineChange[]): void {
  const [n, m] = [a1 - a0, b1 - b0];
  // lcs[i][j]: longest common subsequence of a[a0+i..a1) and b[b0+j..b1).
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[a0 + i] === b[b0 + j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  let [i, j] = [0, 0];
  let open: LineChange | undefined;
  const close = () => {
    if (open) out.push(open);
    open = undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[a0 + i] === b[b0 + j]) {
      close();
      [i, j] = [i + 1, j + 1];
      continue;
    }
    open ??= { oldStart: a0 + i, oldEnd: a0 + i, newStart: b0 + j, newEnd: b0 + j };
    if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) open.oldEnd = a0 + ++i;
    else open.newEnd = b0 + ++j;
  }
  close();
}
