// Where a workspace's tasks live. VS Code's per-window storage is not the folder's identity (in
// code-server each browser tab got a storage folder of its own and lost the others' history), so
// tasks go under the global storage, in a folder named by a hash of the workspace folder's URI:
// every window and tab on the same folder shares one history. Checkpoints live beside them, so
// Compare and Restore work from any window that shows the task.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** `<globalStorage>/workspaces/<hash of the folder URI>`: everything kept per folder. */
function folderHome(globalStorage: string, folderUri: string): string {
  const key = createHash('sha256').update(folderUri).digest('hex').slice(0, 24);
  return path.join(globalStorage, 'workspaces', key);
}

/** `<folder home>/tasks`. */
export function taskHome(globalStorage: string, folderUri: string): string {
  return path.join(folderHome(globalStorage, folderUri), 'tasks');
}

/** The storage folder the checkpoint store is given (it keeps its blobs under `checkpoints/`). */
export function checkpointHome(globalStorage: string, folderUri: string): string {
  return folderHome(globalStorage, folderUri);
}

/**
 * Checkpoints kept by the older per-window layout move (a rename, no copy of the blobs) into the
 * folder's home the first time it has none, so adopted tasks keep Compare and Restore. Returns
 * whether they moved; a failure (another disk, another window first) leaves them where they were.
 */
export async function adoptOldCheckpoints(oldStorage: string, home: string): Promise<boolean> {
  const from = path.join(oldStorage, 'checkpoints');
  const to = path.join(home, 'checkpoints');
  if (path.resolve(from) === path.resolve(to) || (await exists(to)) || !(await exists(from))) return false;
  await fs.mkdir(home, { recursive: true });
  return fs.rename(from, to).then(
    () => true,
    () => false,
  );
}

/**
 * The first time a folder's shared home is used, tasks kept by the older per-window layout
 * are copied in (logs and index), so nobody loses history by upgrading. The old copy stays.
 */
export async function adoptOldTasks(oldDir: string, home: string): Promise<number> {
  if (await exists(home)) return 0;
  const names = await fs.readdir(oldDir).catch(() => [] as string[]);
  const files = names.filter((n) => n.endsWith('.jsonl') || n === 'index.json');
  await fs.mkdir(home, { recursive: true });
  for (const name of files) await fs.copyFile(path.join(oldDir, name), path.join(home, name));
  return files.filter((n) => n.endsWith('.jsonl')).length;
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}
