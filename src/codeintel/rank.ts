// Ranks a workspace's files by the reference graph: a file that uses a name another file
// defines points at it, and a personalised PageRank over those arrows says which files the rest
// of the code leans on. The task's focus (files it names or has open, names in its words) is
// where the walk restarts, so files near the task rank high. Names defined in many files
// ("get", "run") say little about which one is meant and weigh less. A name of the task written
// as code (`safeParse`, `parse_entry`, `$ZodType`) that a few files define at their top level (a
// function, a class) puts those files first, above any the graph alone ranks; keys of object
// literals and object types define nothing here (members.ts).
import type { IndexedFile } from './code-index.js';
import type { IndexedDef } from './extract.js';
import { isLiteralKey } from './members.js';

const DAMPING = 0.85;
const ITERATIONS = 24;
/** A name defined in more files than this is too common to point anywhere. */
const MAX_DEFINERS = 12;

export interface RankFocus {
  paths: ReadonlySet<string>;
  /** Identifiers named in the task's words. */
  names: ReadonlySet<string>;
}

/** Score per file (same order as `files`), summing to 1. */
export function rankFiles(files: readonly IndexedFile[], focus: RankFocus, cache = new GraphCache()): Float64Array {
  const { definers, edges } = cache.graph(files);
  const restart = restartVector(files, focus, definers);
  let score: Float64Array = Float64Array.from(restart);
  for (let it = 0; it < ITERATIONS; it++) score = step(score, edges, restart);
  // Scores sum to 1, so a whole point ranks the named definitions' files above every other.
  for (const i of namedDefiners(files, focus.names)) score[i]! += 1;
  return score;
}

interface Graph {
  definers: Map<string, number[]>;
  edges: Edge[][];
}

/**
 * The reference graph of the last ranking, kept between maps. When the same files come back,
 * only the arrows that can have changed are recomputed: those of the files that changed, and of
 * the files that use a name whose definers changed. One edited file costs its own arrows (and
 * its names' users'), not the whole workspace's.
 */
export class GraphCache {
  private files: readonly IndexedFile[] = [];
  private names: string[][] = [];
  private last: Graph = { definers: new Map(), edges: [] };

  graph(files: readonly IndexedFile[]): Graph {
    const same = files.length === this.files.length && files.every((f, i) => f.path === this.files[i]!.path);
    if (!same) return this.rebuild(files);
    const changed = files.flatMap((f, i) => (f === this.files[i] ? [] : [i]));
    const moved = new Set<string>();
    for (const i of changed) for (const name of this.redefine(i, definedNames(files[i]!))) moved.add(name);
    const affected = new Set(changed);
    if (moved.size > 0) {
      files.forEach((f, j) => {
        if ([...moved].some((n) => f.uses.has(n))) affected.add(j);
      });
    }
    for (const j of affected) this.last.edges[j] = outEdges(files[j]!, j, this.last.definers);
    this.files = files;
    return this.last;
  }

  /** Updates the definers for file `i` now defining `now`; returns the names whose definers changed. */
  private redefine(i: number, now: string[]): string[] {
    const before = this.names[i] ?? [];
    const [gone, added] = [before.filter((n) => !now.includes(n)), now.filter((n) => !before.includes(n))];
    for (const name of gone) {
      const list = this.last.definers.get(name)!.filter((x) => x !== i);
      if (list.length > 0) this.last.definers.set(name, list);
      else this.last.definers.delete(name);
    }
    for (const name of added) {
      // Kept in file order, as a fresh build makes them, so the scores come out the same.
      const list = [...(this.last.definers.get(name) ?? []), i].sort((a, b) => a - b);
      this.last.definers.set(name, list);
    }
    this.names[i] = now;
    return [...gone, ...added];
  }

  private rebuild(files: readonly IndexedFile[]): Graph {
    const definers = definersByName(files);
    this.last = { definers, edges: files.map((f, i) => outEdges(f, i, definers)) };
    this.files = files;
    this.names = files.map(definedNames);
    return this.last;
  }
}

/** Whether a definition is one the graph counts: it defines a name, and not as a literal's key. */
function counts(file: IndexedFile, d: IndexedDef): boolean {
  return d.defines && !isLiteralKey(file.spec, d);
}

/** The names a file defines, each once. */
function definedNames(file: IndexedFile): string[] {
  return [...new Set(file.defs.filter((d) => counts(file, d)).map((d) => d.name))];
}

/** Which files (by index) define each top-level or member name. */
function definersByName(files: readonly IndexedFile[]): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  files.forEach((f, i) => {
    for (const d of f.defs) {
      if (!counts(f, d)) continue;
      const list = byName.get(d.name);
      if (!list) byName.set(d.name, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  return byName;
}

interface Edge {
  to: number;
  weight: number;
}

/** A file's references to its own names are no vote for itself. */
function outEdges(file: IndexedFile, self: number, definers: Map<string, number[]>): Edge[] {
  const weights = new Map<number, number>();
  for (const [name, at] of file.uses) {
    const targets = definers.get(name);
    if (!targets || targets.length > MAX_DEFINERS) continue;
    const w = (Math.sqrt(at.length) * (name.length >= 8 ? 2 : 1)) / targets.length;
    for (const t of targets) {
      if (t === self) continue;
      weights.set(t, (weights.get(t) ?? 0) + w);
    }
  }
  let total = 0;
  for (const w of weights.values()) total += w;
  return [...weights].map(([to, w]) => ({ to, weight: w / total }));
}

function restartVector(files: readonly IndexedFile[], focus: RankFocus, definers: Map<string, number[]>): Float64Array {
  const v = new Float64Array(files.length);
  files.forEach((f, i) => {
    if (focus.paths.has(f.path)) v[i]! += 1;
  });
  for (const name of focus.names) {
    const defining = definers.get(name);
    if (defining && defining.length <= MAX_DEFINERS) for (const i of defining) v[i]! += 0.5;
  }
  const sum = v.reduce((a, b) => a + b, 0);
  if (sum === 0) return v.fill(1 / Math.max(1, files.length));
  // Some restart mass stays everywhere: an unfocused file can still rank on its references.
  const spread = 0.2 / files.length;
  return v.map((x) => (0.8 * x) / sum + spread);
}

/** Written as code, not as a word: a capital after the first letter, a digit, `_` or `$` (`safeParse`, not `parse`). */
export function looksLikeCode(name: string): boolean {
  return /^.+[A-Z]|[\d_$]/u.test(name);
}

/**
 * The files defining a name of the task that looks like code at their top level (never as a
 * literal's key), for names so defined in at most MAX_DEFINERS files; one pass over the definitions.
 */
function namedDefiners(files: readonly IndexedFile[], words: ReadonlySet<string>): Set<number> {
  const names = new Set([...words].filter(looksLikeCode));
  const byName = new Map<string, number[]>();
  if (names.size === 0) return new Set();
  files.forEach((f, i) => {
    for (const d of f.defs) {
      if (d.parent >= 0 || !names.has(d.name) || !counts(f, d)) continue;
      const list = byName.get(d.name);
      if (!list) byName.set(d.name, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  return new Set([...byName.values()].filter((list) => list.length <= MAX_DEFINERS).flat());
}

function step(score: Float64Array, edges: readonly Edge[][], restart: Float64Array): Float64Array {
  const next = new Float64Array(score.length);
  let dangling = 0;
  edges.forEach((out, i) => {
    const s = score[i]!;
    if (out.length === 0) dangling += s;
    for (const e of out) next[e.to]! += DAMPING * s * e.weight;
  });
  for (let i = 0; i < next.length; i++) next[i]! += (1 - DAMPING + DAMPING * dangling) * restart[i]!;
  return next;
}
