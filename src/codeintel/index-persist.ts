// How the code index meets its disk cache (index-cache.ts): the cache is read once, before the
// first walk; what the walk lists is matched against it (the same size and mtime, or the same
// size and content hash when only the mtime moved, as a checkout or a copy leaves it), and only
// the rest is parsed. After a walk or a host's touch changed anything, the index is written back
// in the background, atomically, so a run that ends or crashes mid-write leaves the old cache or
// the new one, never half of either. A cache that cannot be read or written costs only speed.
import { contentHash, readBytes } from './parse-file.js';
import {
  type CachedFile,
  type CachedGivenUp,
  type CachedIndex,
  decodeIndexCache,
  encodeIndexCache,
  type IndexCacheStore,
} from './index-cache.js';
import type { SourceStat } from './source-files.js';

/** A host's touches are written this long after the last one (an editor saving file after file). */
const TOUCH_SAVE_DELAY_MS = 5000;

export type Adopted = { file: CachedFile } | { givenUp: CachedGivenUp };

export interface Adoption {
  /** The cache's entries still true of the listed files, by path (mtimes brought up to date). */
  adopted: Map<string, Adopted>;
  /** Whether the cache differs from what the walk found (a file gone, changed, or its mtime moved). */
  stale: boolean;
}

export class IndexPersist {
  private seed: Promise<CachedIndex | undefined> | undefined;
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: IndexCacheStore,
    private readonly snapshot: () => CachedIndex,
  ) {}

  /** The cache as read at the first call; undefined after that, or when none could be read. */
  async takeSeed(): Promise<CachedIndex | undefined> {
    if (this.seed) return undefined;
    this.seed = this.store.load().then(
      (text) => (text === undefined ? undefined : decodeIndexCache(text)),
      () => undefined,
    );
    return this.seed;
  }

  /** The index changed: written soon (`delayMs` 0, after a walk), or after a quiet spell (a touch). */
  changed(delayMs = 0): void {
    this.dirty = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref?.();
  }

  touched(): void {
    this.changed(TOUCH_SAVE_DELAY_MS);
  }

  /** Writes what changed now and waits for every write under way (a CLI run before it exits). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    if (this.dirty) {
      this.dirty = false;
      this.writing = this.writing.then(() => this.write());
    }
    return this.writing;
  }

  private async write(): Promise<void> {
    try {
      await this.store.save(encodeIndexCache(this.snapshot()));
    } catch {
      // A cache not written is built again next run.
    }
  }
}

/**
 * Matches the walk's files against the cache. A file whose size matches but whose mtime moved
 * is read and hashed here (no parse); the cache says nothing about a file it does not list.
 */
export async function adoptCached(root: string, listed: readonly SourceStat[], seed: CachedIndex): Promise<Adoption> {
  const adopted = new Map<string, Adopted>();
  let stale = false;
  let hashed = 0;
  for (const s of listed) {
    const file = seed.files.get(s.path);
    const givenUp = seed.givenUp.get(s.path);
    if (file && file.size === s.size && file.mtimeMs === s.mtimeMs) adopted.set(s.path, { file });
    else if (givenUp && givenUp.size === s.size && givenUp.mtimeMs === s.mtimeMs) adopted.set(s.path, { givenUp });
    else if (file && file.size === s.size && sameContent(root, s.path, file.hash)) {
      adopted.set(s.path, { file: { ...file, mtimeMs: s.mtimeMs } });
      stale = true;
      // Hashing is quick but not free: let timers and I/O in now and then.
      if (++hashed % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    } else stale ||= file !== undefined || givenUp !== undefined;
  }
  stale ||= adopted.size < seed.files.size + seed.givenUp.size;
  return { adopted, stale };
}

function sameContent(root: string, path: string, hash: string): boolean {
  const bytes = readBytes(root, path);
  return bytes !== undefined && contentHash(bytes) === hash;
}
