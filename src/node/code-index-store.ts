// Where the code index of a workspace is kept between runs: one file under Keel's config folder
// (`code-index/<hash of the workspace's real path>.json`), never inside the workspace, so a
// repository cannot ship a cache of its own and the walk never meets it. The file is only data
// (src/codeintel/index-cache.ts checks every value); one too large to be a cache is not read,
// and it is written atomically, so a reader sees the old file or the new one.
import { createHash } from 'node:crypto';
import { promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from './atomic-write.js';
import { keelConfigDir } from './config-folder.js';

/** A cache larger than this is not read (a 20,000-file workspace writes a few tens of MB). */
const MAX_CACHE_BYTES = 256 * 1024 * 1024;

export interface CodeIndexStore {
  /** The file it reads and writes. */
  readonly file: string;
  load(): Promise<string | undefined>;
  save(text: string): Promise<void>;
}

/** The cache file of the workspace at `root` (its real path: two names of one folder share one cache). */
export function codeIndexCacheFile(root: string, env: NodeJS.ProcessEnv = process.env): string {
  let real = path.resolve(root);
  try {
    real = realpathSync(real);
  } catch {
    // A root that cannot be resolved keeps its own name.
  }
  const key = createHash('sha256').update(real).digest('hex').slice(0, 32);
  return path.join(keelConfigDir(env), 'code-index', `${key}.json`);
}

export function codeIndexStore(file: string): CodeIndexStore {
  return {
    file,
    async load() {
      try {
        const st = await fs.stat(file);
        if (!st.isFile() || st.size > MAX_CACHE_BYTES) return undefined;
        return await fs.readFile(file, 'utf8');
      } catch {
        return undefined;
      }
    },
    async save(text: string) {
      // The cache holds lines of the workspace's code: only the user may read it.
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // A cache needs no fsync: a torn write is impossible (rename) and a lost one is rebuilt.
      await atomicWrite(file, Buffer.from(text, 'utf8'), { durable: false });
    },
  };
}
