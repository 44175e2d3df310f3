// The syntax-tree index of a workspace: every source file the walk keeps (.gitignore and
// .keelignore honoured, files that may hold secrets and dependency folders never read), parsed
// once and kept by size and mtime. A refresh walks and stats again and re-parses only the files
// that changed; `touch` re-reads files a host knows changed (its own writes, a file watcher)
// without a walk.
import type { Workspace } from '../kernel/index.js';
import { isSecretFile } from '../tools/policy/protected-paths.js';
import { type IndexedDef, parseSource } from './extract.js';
import { type LanguageSpec, languageOf } from './languages.js';
import { listSources, readSource, type SourceStat } from './source-files.js';

export interface IndexedFile {
  path: string;
  spec: LanguageSpec;
  size: number;
  mtimeMs: number;
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
}

/** Folders of other people's code or build output: never indexed, ignored or not. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.venv', 'venv', '__pycache__', 'target', 'bower_components']);

export class CodeIndex {
  private readonly entries = new Map<string, IndexedFile>();
  private refreshing: Promise<void> | undefined;
  private readonly maxFiles: number;
  private readonly maxFileBytes: number;
  /** True when the last walk stopped at maxFiles. */
  partial = false;
  /** False until a walk has found what is there (always false without a watcher). */
  private current = false;
  private readonly watched: boolean;

  constructor(
    private readonly ws: Pick<Workspace, 'root'>,
    options: CodeIndexOptions = {},
  ) {
    this.maxFiles = options.maxFiles ?? 20_000;
    this.maxFileBytes = options.maxFileBytes ?? 512 * 1024;
    this.watched = options.watched === true;
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

  /** Re-reads these files now (a write the host made): no walk. A path gone or unreadable is dropped. */
  async touch(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      if (!this.accepts(path) || path.split('/').some((part) => SKIPPED_FOLDERS.has(part) || part === '.git')) continue;
      const listed = await listOne(this.ws.root, path);
      if (listed) await this.store(listed, listed.size > this.maxFileBytes ? undefined : readSource(this.ws.root, path));
      else this.entries.delete(path);
    }
  }

  private accepts(path: string): boolean {
    return languageOf(path) !== undefined && !isSecretFile(path);
  }

  private async walkAndParse(signal: AbortSignal | undefined): Promise<void> {
    const listing = await listSources(this.ws.root, {
      accepts: (p) => this.accepts(p),
      skipFolders: SKIPPED_FOLDERS,
      maxFiles: this.maxFiles,
      ...(signal ? { signal } : {}),
    });
    this.partial = listing.partial;
    const keep = new Set(listing.files.map((s) => s.path));
    for (const path of this.entries.keys()) if (!keep.has(path)) this.entries.delete(path);
    for (const s of listing.files) {
      if (signal?.aborted) return;
      const known = this.entries.get(s.path);
      if (known && known.size === s.size && known.mtimeMs === s.mtimeMs) continue;
      await this.store(s, s.size > this.maxFileBytes ? undefined : readSource(this.ws.root, s.path));
    }
  }

  /** Parses the text read for a file; a file too large, unreadable or binary leaves the index. */
  private async store(s: SourceStat, text: string | undefined): Promise<void> {
    const spec = languageOf(s.path);
    if (!spec || text === undefined || text.includes('\0')) {
      this.entries.delete(s.path);
      return;
    }
    const parsed = await parseSource(text, spec);
    this.entries.set(s.path, { path: s.path, spec, size: s.size, mtimeMs: s.mtimeMs, ...parsed });
  }
}

/** One file's listing, when it is a regular file the ignore rules keep. */
async function listOne(root: string, path: string): Promise<SourceStat | undefined> {
  const slash = path.lastIndexOf('/');
  const only = slash < 0 ? '' : path.slice(0, slash);
  const listing = await listSources(root, { accepts: (p) => p === path, skipFolders: SKIPPED_FOLDERS, maxFiles: 1, only });
  return listing.files[0];
}
