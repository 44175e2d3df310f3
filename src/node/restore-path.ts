// Where a checkpoint restore may write: a path below the workspace root whose every folder is a
// real folder — never a symbolic link, inside the workspace or pointing out of it (a test run
// that swapped `src` for a link to $HOME would otherwise have restore write ~/.gitconfig, and a
// link to .git would pass a name check) — and never inside .git by any spelling (`.GIT` on a
// case-insensitive disk, `.git.` where trailing dots are dropped, `a/../.git`). A link found
// where a folder was is reported by name and nothing is restored.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

class RestoreRefused extends Error {}

/** True for a path segment that names git's folder on some disk. */
function isGitSegment(segment: string): boolean {
  return segment.toLowerCase().replace(/[. ]+$/, '') === '.git';
}

/** `abs` (already resolved under `root`) when no segment below root is .git. */
export function outsideGit(root: string, abs: string, rel: string): string {
  if (path.relative(root, abs).split(path.sep).some(isGitSegment)) throw new RestoreRefused(`Keel never writes inside .git: ${rel}`);
  return abs;
}

/**
 * Refuses `abs` when a folder on its way from `root` is a link (or not a folder). Folders that
 * do not exist yet are fine: the write creates them.
 */
export async function checkRestorePath(root: string, abs: string): Promise<void> {
  const parts = path.relative(root, abs).split(path.sep).slice(0, -1);
  let dir = root;
  for (const part of parts) {
    dir = path.join(dir, part);
    const stat = await fs.lstat(dir).catch(() => undefined);
    if (!stat) return;
    const rel = path.relative(root, dir).split(path.sep).join('/');
    if (stat.isSymbolicLink()) {
      const target = await fs.readlink(dir).catch(() => '?');
      throw new RestoreRefused(
        `${rel} is a symbolic link (to ${target}) where the checkpoint had a folder; nothing was restored. Remove the link and restore again.`,
      );
    }
    if (!stat.isDirectory()) throw new RestoreRefused(`${rel} is not a folder, as it was at the checkpoint; nothing was restored.`);
  }
}
