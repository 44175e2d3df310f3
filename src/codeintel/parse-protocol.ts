// What the code index's parse pool (parse-pool.ts) and its workers (parse-worker.ts) say to each
// other. A worker starts while the walk is still listing files (it loads tree-sitter meanwhile),
// then gets the list; every worker shares one counter with the main thread; each thread,
// the main one included, takes the next index from the counter until the list is used up, so no
// file is parsed twice and a slow or loaded thread simply takes fewer. Results carry the index,
// so the main thread stores them in the walk's order whoever parsed them. A file's identifiers
// travel packed (one string of names, two typed arrays): copying a map of small arrays between
// threads cost the main thread more than half what parsing the file there would.
import type { IndexedDef, ParsedFile } from './extract.js';
import type { SkipReason } from './parse-limits.js';

/** A worker's `workerData`. */
export interface WorkerSetup {
  root: string;
  /** One Int32 over a SharedArrayBuffer: the next index to take (Atomics.add). */
  counter: SharedArrayBuffer;
  /**
   * Two Int32s per worker over a SharedArrayBuffer, at `2 * slot`: the index of the file the
   * worker is parsing plus one (0: none), and when it started, in ms since `since` (Date.now()).
   * The pool's watchdog reads them (parse-pool.ts).
   */
  busy: SharedArrayBuffer;
  slot: number;
  since: number;
  /** Post each outcome as soon as it is known (slow files: a worker stopped on one loses no other). */
  reportEach: boolean;
}

/** The one message a worker gets: workspace-relative paths of the files to parse, in the walk's order. */
export interface ParseJob {
  type: 'parse';
  paths: readonly string[];
}

/**
 * One file's outcome: what it holds, `unreadable` (gone, unreadable or binary: the index drops
 * it), or `skipped` (given up under parse-limits.ts: the index drops it and says why).
 */
export type FileOutcome = { type: 'parsed'; file: ParsedFile; hash: string } | { type: 'unreadable' } | Skipped;
type Skipped = { type: 'skipped'; reason: SkipReason };

/** A parsed file as it crosses threads: the uses' names joined by newlines (no name holds one), each name's count, all positions. */
interface PackedFile {
  defs: IndexedDef[];
  names: string;
  counts: Uint32Array;
  positions: Float64Array;
}

export type PackedOutcome = { type: 'parsed'; file: PackedFile; hash: string } | { type: 'unreadable' } | Skipped;

export type WorkerMessage =
  /** Outcomes of files this worker took, in the order it finished them. */
  | { type: 'outcomes'; indexes: number[]; outcomes: PackedOutcome[] }
  /** A file the worker could not parse (its grammar failed to load, the parse threw): the main thread parses it. */
  | { type: 'failed'; index: number }
  /** The counter is used up and every outcome has been posted. */
  | { type: 'done' };

/** Takes the next index from the shared counter. */
export function takeNext(counter: Int32Array): number {
  return Atomics.add(counter, 0, 1);
}

/** Marks the worker at `slot` busy with file `index` from now (undefined: idle). */
export function markBusy(busy: Int32Array, slot: number, since: number, index: number | undefined): void {
  if (index !== undefined) Atomics.store(busy, 2 * slot + 1, Date.now() - since);
  Atomics.store(busy, 2 * slot, index === undefined ? 0 : index + 1);
}

export function packOutcome(outcome: FileOutcome): PackedOutcome {
  if (outcome.type !== 'parsed') return outcome;
  const { defs, uses } = outcome.file;
  let total = 0;
  for (const at of uses.values()) total += at.length;
  const counts = new Uint32Array(uses.size);
  const positions = new Float64Array(total);
  let k = 0;
  let j = 0;
  for (const at of uses.values()) {
    counts[k++] = at.length;
    for (const p of at) positions[j++] = p;
  }
  return { type: 'parsed', file: { defs, names: [...uses.keys()].join('\n'), counts, positions }, hash: outcome.hash };
}

export function unpackOutcome(outcome: PackedOutcome): FileOutcome {
  if (outcome.type !== 'parsed') return outcome;
  const { defs, names, counts, positions } = outcome.file;
  const { hash } = outcome;
  const uses: ParsedFile['uses'] = new Map();
  if (counts.length === 0) return { type: 'parsed', file: { defs, uses }, hash };
  let j = 0;
  names.split('\n').forEach((name, k) => {
    const at = new Array<number>(counts[k]!);
    for (let i = 0; i < at.length; i++) at[i] = positions[j++]!;
    uses.set(name, at);
  });
  return { type: 'parsed', file: { defs, uses }, hash };
}
