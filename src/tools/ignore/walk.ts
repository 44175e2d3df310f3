// Walks the workspace through the port, breadth first, honouring .gitignore and .keelignore at
// every level and always skipping .git and Keel's own temporary files (a write in flight, or one
// a crash left behind). Shared by list_files and search_files.
import { isKeelTempPath, type DirEntry, type Workspace } from '../../kernel/index.js';
import { IgnoreMatcher } from './gitignore.js';

const IGNORE_FILES = ['.gitignore', '.keelignore'];
const decoder = new TextDecoder();

export interface WalkOptions {
  recursive: boolean;
  signal?: AbortSignal;
}

/** Yields every entry under `start` (workspace-relative, '' for the root) that is not ignored. */
export async function* walk(ws: Workspace, start: string, opts: WalkOptions): AsyncGenerator<DirEntry> {
  for await (const entries of walkFolders(ws, start, opts)) yield* entries;
}

/** The same walk, one folder's kept entries at a time (one step per folder, not per entry). */
export async function* walkFolders(ws: Workspace, start: string, opts: WalkOptions): AsyncGenerator<DirEntry[]> {
  let queue: { dir: string; ignore: IgnoreMatcher }[] = [{ dir: start, ignore: await ancestorsIgnore(ws, start) }];
  while (queue.length) {
    const next: typeof queue = [];
    for (const { dir, ignore } of queue) {
      if (opts.signal?.aborted) return;
      const entries = await readDirSafe(ws, dir);
      const scoped = await withIgnoreFiles(ws, dir, entries, ignore);
      const kept = entries.filter(
        (e) =>
          !(e.type === 'directory' && baseName(e.path) === '.git') &&
          !(e.type !== 'directory' && isKeelTempPath(e.path)) &&
          !scoped.isIgnored(e.path, e.type === 'directory'),
      );
      yield kept;
      if (opts.recursive) for (const e of kept) if (e.type === 'directory') next.push({ dir: e.path, ignore: scoped });
    }
    queue = next;
  }
}

async function ancestorsIgnore(ws: Workspace, start: string): Promise<IgnoreMatcher> {
  let ignore = new IgnoreMatcher();
  if (start === '') return ignore;
  const parts = start.split('/');
  for (let i = 0; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    ignore = await withIgnoreFiles(ws, dir, undefined, ignore);
  }
  return ignore;
}

async function withIgnoreFiles(ws: Workspace, dir: string, entries: DirEntry[] | undefined, ignore: IgnoreMatcher): Promise<IgnoreMatcher> {
  for (const name of IGNORE_FILES) {
    const path = dir === '' ? name : `${dir}/${name}`;
    if (entries && !entries.some((e) => e.path === path && e.type === 'file')) continue;
    try {
      ignore = ignore.with(dir, decoder.decode(await ws.readFile(path)));
    } catch {
      // No ignore file here (or unreadable): nothing to apply.
    }
  }
  return ignore;
}

async function readDirSafe(ws: Workspace, dir: string): Promise<DirEntry[]> {
  try {
    return await ws.readDir(dir);
  } catch {
    return [];
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
