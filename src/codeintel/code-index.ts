// The syntax-tree index of a workspace: every source file the walk keeps (.gitignore and
// .keelignore honoured, files that may hold secrets and dependency folders never read), parsed
// once and kept by size and mtime. A refresh walks and stats again and re-parses only the files
// that changed; `touch` re-reads files a host knows changed (its own writes, a file watcher)
// without a walk. With a cache store (index-persist.ts), a run starts from what the last one
// parsed: only files changed since are parsed again, and files gone are dropped.
import type { Workspace } from '../kernel/index.js';
import { isSecretFile } from '../tools/policy/protected-paths.js';
import type { IndexedDef } from './extract.js';
import type { CachedIndex, IndexCacheStore } from './index-cache.js';
import { type Adopted, adoptCached, IndexPersist } from './index-persist.js';
import { type LanguageSpec, languageOf } from './languages.js';
import type { SkipReason } from './parse-limits.js';
import { type ParseOptions, ParsePool, parseFiles, POOL_MIN_FILES, poolSize } from './parse-pool.js';
import type { FileOutcome } from './parse-protocol.js';
import { listSources, type SourceStat } from './source-files.js';

export interface IndexedFile {
  path: string;
  spec: LanguageSpec;
  size: number;
  mtimeMs: number;
  /** The content hash of the bytes parsed (parse-file.ts). */
  hash: string;
  defs: IndexedDef[];
  /** Identifier → where it occurs (packPosition), in order. */
  uses: Map<string, number[]>;
}

export interface CodeIndexOptions {
  /** Files indexed at most (the walk's first ones); a workspace past it is indexed in part. */
  maxFiles?: number;
  /** Larger files are not parsed (generated or minified code). */
  maxFileBytes?: number;
  /**
   * A file watcher calls `touch` for every change (VS Code): after the first walk, a refresh
   * walks again only when `invalidate` asked for it (an ignore file changed, events were lost).
   */
  watched?: boolean;
  /**
   * Worker threads that parse a walk's files beside the main thread (parse-pool.ts): 0 parses
   * all on this thread; unset, one per spare core (at most 4) when there are enough files.
   */
  parseWorkers?: number;
  /** The parse worker's script, instead of the bundled or source one (the bench runs a bundle; tests, failing workers). */
  parseWorkerScript?: string;
  /** What one file may hold the main thread for before a worker takes it over (parse-pool.ts; tests hand every file over). */
  mainThreadFileMs?: number;
  /** Where the index is kept between runs (index-cache.ts); none: every run parses every file. */
  cache?: IndexCacheStore;
  /** Told after each file a walk parses (the CLI's and the panel's "indexing" line). */
  onProgress?: (progress: IndexProgress) => void;
}

export interface IndexProgress {
  parsed: number;
  /** Files this walk parses (those the cache did not hold). */
  total: number;
}

/** How the last walk's files were parsed (the bench and tests read it). */
export interface ParseStats {
  files: number;
  workers: number;
  byWorkers: number;
  recovered: number;
}

/** Folders of other people's code or build output: never indexed, ignored or not. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.venv', 'venv', '__pycache__', 'target', 'bower_components']);

export class CodeIndex {
  private readonly entries = new Map<string, IndexedFile>();
  /** Files given up under the parse limits (parse-limits.ts), and why: left out of the index. */
  private readonly givenUp = new Map<string, { reason: SkipReason; size: number; mtimeMs: number }>();
  private refreshing: Promise<void> | undefined;
  private readonly maxFiles: number;
  private readonly maxFileBytes: number;
  /** True when the last walk stopped at maxFiles. */
  partial = false;
  /** False until a walk has found what is there (always false without a watcher). */
  private current = false;
  private readonly watched: boolean;
  private readonly parseWorkers: number | undefined;
  private readonly parseWorkerScript: string | undefined;
  private readonly mainThreadFileMs: number | undefined;
  private readonly persist: IndexPersist | undefined;
  private readonly onProgress: ((progress: IndexProgress) => void) | undefined;
  lastParse: ParseStats | undefined;

  constructor(
    private readonly ws: Pick<Workspace, 'root'>,
    options: CodeIndexOptions = {},
  ) {
    this.maxFiles = options.maxFiles ?? 20_000;
    this.maxFileBytes = options.maxFileBytes ?? 512 * 1024;
    this.watched = options.watched === true;
    this.parseWorkers = options.parseWorkers;
    this.parseWorkerScript = options.parseWorkerScript;
    this.mainThreadFileMs = options.mainThreadFileMs;
    this.onProgress = options.onProgress;
    this.persist = options.cache && new IndexPersist(options.cache, () => this.snapshot());
  }

  files(): IterableIterator<IndexedFile> {
    return this.entries.values();
  }

  file(path: string): IndexedFile | undefined {
    return this.entries.get(path);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The files left out because their parse was given up, and why. */
  skipped(): Map<string, SkipReason> {
    return new Map([...this.givenUp].map(([path, g]) => [path, g.reason]));
  }

  /** Brings the index up to date with the workspace; concurrent callers share one walk. */
  refresh(signal?: AbortSignal): Promise<void> {
    if (this.current && this.watched) return Promise.resolve();
    this.refreshing ??= this.walkAndParse(signal)
      .then(() => {
        if (!signal?.aborted) this.current = true;
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  /** The next refresh walks the whole workspace again (an ignore file changed, a watcher lost events). */
  invalidate(): void {
    this.current = false;
  }

  /**
   * Lets the walk under way end, then writes the index to its cache if it changed (before a CLI
   * run exits: a short run on a large workspace still leaves the next one a cache).
   */
  async flush(): Promise<void> {
    await this.refreshing?.catch(() => undefined);
    await this.persist?.flush();
  }

  /** Re-reads these files now (a write the host made): no walk. A path gone or unreadable is dropped. */
  async touch(paths: readonly string[]): Promise<void> {
    if (paths.length > 0) this.persist?.touched();
    for (const path of paths) {
      if (!this.accepts(path) || path.split('/').some((part) => SKIPPED_FOLDERS.has(part) || part === '.git')) continue;
      const listed = await listOne(this.ws.root, path);
      if (!listed) this.forget(path);
      else if (listed.size > this.maxFileBytes) this.store(listed, undefined);
      else this.store(listed, (await parseFiles(this.ws.root, [path], this.parseOptions())).outcomes[0]);
    }
  }

  private accepts(path: string): boolean {
    return languageOf(path) !== undefined && !isSecretFile(path);
  }

  private async walkAndParse(signal: AbortSignal | undefined): Promise<void> {
    const seed = await this.persist?.takeSeed();
    const pool = this.earlyPool(seed);
    try {
      const listing = await listSources(this.ws.root, {
        accepts: (p) => this.accepts(p),
        skipFolders: SKIPPED_FOLDERS,
        maxFiles: this.maxFiles,
        ...(signal ? { signal } : {}),
        onFile: pool.onFile,
      });
      this.partial = listing.partial;
      const keep = new Set(listing.files.map((s) => s.path));
      const gone = [...this.entries.keys(), ...this.givenUp.keys()].filter((path) => !keep.has(path));
      for (const path of gone) this.forget(path);
      const fromCache = seed ? await adoptCached(this.ws.root, listing.files, seed) : undefined;
      const changed = listing.files.filter((s) => {
        if (fromCache?.adopted.has(s.path)) return false;
        // A file given up is tried again only once it changes.
        const known = this.entries.get(s.path) ?? this.givenUp.get(s.path);
        return !known || known.size !== s.size || known.mtimeMs !== s.mtimeMs;
      });
      const toParse = changed.filter((s) => s.size <= this.maxFileBytes).map((s) => s.path);
      const early = pool.started();
      const workers = early?.size ?? this.parseWorkers ?? poolSize(toParse.length);
      const late = !early && workers > 0 && toParse.length > 0 ? this.newPool(workers) : undefined;
      const onParsed = this.progressOf(toParse.length);
      const parsed = await parseFiles(this.ws.root, toParse, this.parseOptions({ pool: early ?? late, signal, onParsed }));
      this.lastParse = { files: toParse.length, workers, byWorkers: parsed.byWorkers, recovered: parsed.recovered };
      const outcomes = new Map(toParse.map((path, i) => [path, parsed.outcomes[i]]));
      // Stored in the walk's order, as a file-by-file walk would, whichever thread parsed each.
      const parsedNow = new Set(changed.map((s) => s.path));
      for (const s of listing.files) {
        const cached = fromCache?.adopted.get(s.path);
        if (cached) this.adopt(s, cached);
        if (!parsedNow.has(s.path)) continue;
        const outcome = s.size > this.maxFileBytes ? undefined : outcomes.get(s.path);
        if (s.size <= this.maxFileBytes && !outcome) return; // stopped by the signal
        this.store(s, outcome);
      }
      if (changed.length > 0 || gone.length > 0 || fromCache?.stale) this.persist?.changed();
    } finally {
      await pool.started()?.stop();
    }
  }

  /**
   * On the first walk, the parse workers start as soon as the walk has listed enough files to
   * pay for them, so their startup overlaps the rest of the walk (a later walk re-parses few).
   */
  private earlyPool(seed: CachedIndex | undefined): { onFile?: (count: number) => void; started(): ParsePool | undefined } {
    let pool: ParsePool | undefined;
    const started = () => pool;
    if (this.entries.size > 0 || (seed && seed.files.size > 0) || this.parseWorkers === 0) return { started };
    const size = this.parseWorkers ?? poolSize(POOL_MIN_FILES);
    const startAt = this.parseWorkers === undefined ? POOL_MIN_FILES : 1;
    const onFile = (count: number) => {
      if (count === startAt && size > 0) pool = this.newPool(size);
    };
    return { onFile, started };
  }

  private parseOptions(o: ParseOptions = {}): ParseOptions {
    return { ...o, script: this.parseWorkerScript, mainThreadMs: this.mainThreadFileMs };
  }

  /** A walk's parse progress for onProgress; undefined when nobody listens or nothing is parsed. */
  private progressOf(total: number): (() => void) | undefined {
    const tell = this.onProgress;
    if (!tell || total === 0) return undefined;
    let parsed = 0;
    return () => tell({ parsed: ++parsed, total });
  }

  private newPool(size: number): ParsePool {
    // The workers parse; this thread stays free for the task that is starting (parse-pool.ts).
    return new ParsePool(this.ws.root, size, this.parseWorkerScript, 'workers');
  }

  /**
   * Keeps a parsed file; a file too large, unreadable or binary (no outcome, or `unreadable`)
   * leaves the index, and one given up is remembered with its reason.
   */
  private store(s: SourceStat, outcome: FileOutcome | undefined): void {
    const spec = languageOf(s.path);
    this.givenUp.delete(s.path);
    if (outcome?.type === 'skipped') this.givenUp.set(s.path, { reason: outcome.reason, size: s.size, mtimeMs: s.mtimeMs });
    if (!spec || outcome?.type !== 'parsed') {
      this.entries.delete(s.path);
      return;
    }
    this.entries.set(s.path, { path: s.path, spec, size: s.size, mtimeMs: s.mtimeMs, hash: outcome.hash, ...outcome.file });
  }

  /** Keeps what the cache held for a file the walk found unchanged. */
  private adopt(s: SourceStat, cached: Adopted): void {
    const spec = languageOf(s.path);
    if ('givenUp' in cached) this.givenUp.set(s.path, cached.givenUp);
    else if (spec) this.entries.set(s.path, { path: s.path, spec, ...cached.file });
  }

  /** What the cache keeps: every parsed file and every file given up. */
  private snapshot(): CachedIndex {
    return { files: new Map(this.entries), givenUp: new Map(this.givenUp) };
  }

  private forget(path: string): void {
    this.entries.delete(path);
    this.givenUp.delete(path);
  }
}

/** One file's listing, when it is a regular file the ignore rules keep. */
async function listOne(root: string, path: string): Promise<SourceStat | undefined> {
  const slash = path.lastIndexOf('/');
  const only = slash < 0 ? '' : path.slice(0, slash);
  const listing = await listSources(root, { accepts: (p) => p === path, skipFolders: SKIPPED_FOLDERS, maxFiles: 1, only });
  return listing.files[0];
}
