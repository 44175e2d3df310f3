// The start of every run: Keel's stale temporary files (left by a write a crash cut short) are
// removed from the workspace, with its ignore rules, and from Keel's own storage folders. Both
// hosts call this; a sweep that fails never blocks a run.
import { sweepStaleTempFiles } from '../node/stale-temp.js';
import { workspaceIgnore } from './checkpoints.js';

/** The paths removed (relative to their folder); a folder that cannot be swept adds none. */
export async function sweepStaleTemps(workspaceRoot: string, storageDirs: readonly string[] = []): Promise<string[]> {
  const removed: string[] = await sweepStaleTempFiles(workspaceRoot, { isIgnored: workspaceIgnore(workspaceRoot) }).catch(() => []);
  for (const dir of storageDirs) removed.push(...(await sweepStaleTempFiles(dir).catch(() => [])));
  return removed;
}
