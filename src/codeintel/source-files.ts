// The source files of a workspace folder as the index sees them: a walk of the disk from the
// workspace's real root that never follows a symbolic link (so it never leaves the root),
// honours .gitignore and .keelignore as list_files does (the shared predicate), never enters
// .git or dependency folders, and stats each file. It reads the disk directly rather than
// through the Workspace port: a port call resolves every path again, which made a walk of a few
// thousand files take longer than parsing the one that changed. One folder at a time, yielding
// between folders, so a large tree never holds the event loop for long.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ignorePredicate } from '../tools/ignore/predicate.js';

export interface SourceStat {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface SourceWalk {
  /** Whether a file is one to index (its language, secret-file rules). */
  accepts(path: string): boolean;
  /** Folders never entered (by name). */
  skipFolders: ReadonlySet<string>;
  maxFiles: number;
  signal?: AbortSignal;
  /** Walk only the way to this folder and list only its files (one file's check, rules and all). */
  only?: string;
  /** Told the number of files listed so far, after each one (the index starts its parse workers early). */
  onFile?: (count: number) => void;
}

export interface SourceListing {
  files: SourceStat[];
  /** True when the walk stopped at maxFiles. */
  partial: boolean;
}

export async function listSources(root: string, walk: SourceWalk): Promise<SourceListing> {
  const ignored = ignorePredicate((rel) => {
    try {
      return readFileSync(join(root, rel), 'utf8');
    } catch {
      return undefined;
    }
  });
  const files: SourceStat[] = [];
  const folders = [''];
  while (folders.length > 0) {
    if (walk.signal?.aborted) break;
    const dir = folders.shift()!;
    for (const entry of entriesOf(root, dir)) {
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && !walk.skipFolders.has(entry.name) && onTheWay(walk.only, rel) && !ignored(rel, true))
          folders.push(rel);
      } else if (entry.isFile() && (walk.only === undefined || walk.only === dir) && walk.accepts(rel) && !ignored(rel, false)) {
        const st = statOf(join(root, rel));
        if (st) {
          files.push({ path: rel, ...st });
          walk.onFile?.(files.length);
        }
        if (files.length >= walk.maxFiles) return { files, partial: true };
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { files, partial: false };
}

function onTheWay(only: string | undefined, folder: string): boolean {
  return only === undefined || only === folder || only.startsWith(`${folder}/`);
}

function entriesOf(root: string, dir: string) {
  try {
    return readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

function statOf(abs: string): { size: number; mtimeMs: number } | undefined {
  try {
    const st = statSync(abs);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}
