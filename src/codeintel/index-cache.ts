// The code index as it is kept on disk between runs (one file per workspace, outside it; the
// store is src/node/code-index-store.ts): each parsed file's size, mtime, content hash,
// definitions and identifier positions, and the files given up. A later run adopts an entry
// only for a file its own walk lists with the same size and mtime, or the same content hash, so
// the cache can only spare parses, never add a file. What is read back is untrusted: anything
// but the exact shape written (another version, a truncated or hand-made file) is refused whole
// and the index is built as if there were no cache.
import { CODE_SYMBOL_KINDS, type CodeSymbolKind } from '../kernel/index.js';
import type { IndexedDef } from './extract.js';
import type { SkipReason } from './parse-limits.js';

/** Bumped whenever the shape or the meaning of an entry changes (a parser or query change included). */
export const INDEX_CACHE_VERSION = 1;
const FORMAT = 'keel-code-index';

/** Where the cache is kept: read once when a run's index first walks, written after walks that changed it. */
export interface IndexCacheStore {
  load(): Promise<string | undefined>;
  save(text: string): Promise<void>;
}

export interface CachedFile {
  size: number;
  mtimeMs: number;
  hash: string;
  defs: IndexedDef[];
  uses: Map<string, number[]>;
}

export interface CachedGivenUp {
  reason: SkipReason;
  size: number;
  mtimeMs: number;
}

export interface CachedIndex {
  files: Map<string, CachedFile>;
  givenUp: Map<string, CachedGivenUp>;
}

type DefRow = [string, CodeSymbolKind, number, number, number, number, string, 0 | 1, string | null];
/** A file's uses travel packed, as between threads (parse-protocol.ts): names joined by newlines, each one's count, all positions. */
type FileRow = [string, number, number, string, DefRow[], string, number[], number[]];

export function encodeIndexCache(index: CachedIndex): string {
  const files: FileRow[] = [];
  for (const [path, f] of index.files) {
    const defs = f.defs.map(
      (d): DefRow => [d.name, d.kind, d.line, d.column, d.endLine, d.parent, d.signature, d.defines ? 1 : 0, d.container ?? null],
    );
    files.push([
      path,
      f.size,
      f.mtimeMs,
      f.hash,
      defs,
      [...f.uses.keys()].join('\n'),
      [...f.uses.values()].map((at) => at.length),
      [...f.uses.values()].flat(),
    ]);
  }
  const givenUp = [...index.givenUp].map(([path, g]) => [path, g.reason, g.size, g.mtimeMs]);
  return JSON.stringify({ format: FORMAT, version: INDEX_CACHE_VERSION, files, givenUp });
}

/** The cache's entries, or undefined when the text is not a cache this version wrote (never throws). */
export function decodeIndexCache(text: string): CachedIndex | undefined {
  try {
    const raw: unknown = JSON.parse(text);
    if (!isRecord(raw) || raw.format !== FORMAT || raw.version !== INDEX_CACHE_VERSION) return undefined;
    if (!Array.isArray(raw.files) || !Array.isArray(raw.givenUp)) return undefined;
    const files = new Map<string, CachedFile>();
    for (const row of raw.files) files.set(...fileOf(row));
    const givenUp = new Map<string, CachedGivenUp>();
    for (const row of raw.givenUp) givenUp.set(...givenUpOf(row));
    return { files, givenUp };
  } catch {
    return undefined;
  }
}

/** Thrown inside decoding at the first value out of shape; decodeIndexCache turns it into "no cache". */
class Malformed extends Error {}

const KINDS = new Set<string>(CODE_SYMBOL_KINDS);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function need(ok: boolean): void {
  if (!ok) throw new Malformed();
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
/** A workspace-relative path as the walk writes them: no root, no way up, no empty part. */
const isPath = (v: unknown): v is string =>
  typeof v === 'string' &&
  v.length > 0 &&
  !v.startsWith('/') &&
  !v.includes('\\') &&
  v.split('/').every((p) => p !== '' && p !== '..' && p !== '.');

function fileOf(row: unknown): [string, CachedFile] {
  need(Array.isArray(row) && row.length === 8);
  const [path, size, mtimeMs, hash, defs, names, counts, positions] = row as unknown[];
  need(isPath(path) && isCount(size) && isTime(mtimeMs) && typeof hash === 'string' && hash.length > 0);
  need(Array.isArray(defs) && typeof names === 'string' && Array.isArray(counts) && Array.isArray(positions));
  const parsedDefs = (defs as unknown[]).map(defOf);
  for (let i = 0; i < parsedDefs.length; i++) need(parsedDefs[i]!.parent < i);
  return [
    path as string,
    {
      size: size as number,
      mtimeMs: mtimeMs as number,
      hash: hash as string,
      defs: parsedDefs,
      uses: usesOf(names as string, counts as unknown[], positions as unknown[]),
    },
  ];
}

/** The packed uses back as a map: every name once and not empty, every count at least 1, the counts adding up to the positions. */
function usesOf(names: string, counts: unknown[], positions: unknown[]): Map<string, number[]> {
  const uses = new Map<string, number[]>();
  if (names === '') {
    need(counts.length === 0 && positions.length === 0);
    return uses;
  }
  const list = names.split('\n');
  need(list.length === counts.length);
  let j = 0;
  list.forEach((name, k) => {
    const n = counts[k];
    need(name.length > 0 && !uses.has(name) && isCount(n) && n > 0 && j + n <= positions.length);
    const at = positions.slice(j, j + (n as number));
    j += n as number;
    for (const p of at) need(isCount(p));
    uses.set(name, at as number[]);
  });
  need(j === positions.length);
  return uses;
}

function defOf(row: unknown): IndexedDef {
  need(Array.isArray(row) && row.length === 9);
  const [name, kind, line, column, endLine, parent, signature, defines, container] = row as unknown[];
  need(typeof name === 'string' && name.length > 0 && typeof kind === 'string' && KINDS.has(kind));
  need(isCount(line) && isCount(column) && isCount(endLine) && Number.isSafeInteger(parent) && (parent as number) >= -1);
  need(typeof signature === 'string' && (defines === 0 || defines === 1) && (container === null || typeof container === 'string'));
  const def: IndexedDef = {
    name: name as string,
    kind: kind as CodeSymbolKind,
    line: line as number,
    column: column as number,
    endLine: endLine as number,
    parent: parent as number,
    signature: signature as string,
    defines: defines === 1,
  };
  if (typeof container === 'string') def.container = container;
  return def;
}

function givenUpOf(row: unknown): [string, CachedGivenUp] {
  need(Array.isArray(row) && row.length === 4);
  const [path, reason, size, mtimeMs] = row as unknown[];
  need(isPath(path) && (reason === 'nesting' || reason === 'time') && isCount(size) && isTime(mtimeMs));
  return [path as string, { reason: reason as SkipReason, size: size as number, mtimeMs: mtimeMs as number }];
}
