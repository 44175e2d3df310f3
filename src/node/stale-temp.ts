// The sweep of Keel's stale temporary files. A write killed between creating its temp file and
// renaming it (kill -9, a crash, a power cut) leaves `.NAME.keel-PID-NONCE.tmp` behind; each run
// removes those whose writer is gone: its process is dead, or it is this process and the file is
// not one of its writes in flight. A live process of that pid keeps its file unless the file is
// older than any write could take (the pid was reused by another program).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseKeelTempName } from '../kernel/temp-files.js';
import { isWriting } from './atomic-write.js';
import { processAlive } from './process-alive.js';

/** No write keeps its temp file this long: past it, a live pid is another program's. */
const STALE_AFTER_MS = 60 * 60 * 1000;
/** A sweep stops after this many entries, so a huge tree cannot stall a run's start. */
const MAX_ENTRIES = 200_000;

export interface SweepOptions {
  /** Workspace-relative paths to leave out (ignore rules); `.git` is always left out. */
  isIgnored?: (rel: string, isDir: boolean) => boolean;
  now?: () => number;
  alive?: (pid: number) => boolean;
}

/** Removes the stale temp files under `root`; returns their paths relative to it. */
export async function sweepStaleTempFiles(root: string, options: SweepOptions = {}): Promise<string[]> {
  const removed: string[] = [];
  const alive = options.alive ?? processAlive;
  const now = (options.now ?? Date.now)();
  let seen = 0;
  let queue = [''];
  while (queue.length > 0 && seen < MAX_ENTRIES) {
    const next: string[] = [];
    for (const dir of queue) {
      const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
      seen += entries.length;
      for (const entry of entries) {
        const rel = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (entry.name !== '.git' && !options.isIgnored?.(rel, true)) next.push(rel);
        } else if (entry.isFile() && (await isStale(path.join(root, rel), entry.name, alive, now))) {
          await fs.rm(path.join(root, rel), { force: true });
          removed.push(rel);
        }
      }
    }
    queue = next;
  }
  return removed;
}

async function isStale(abs: string, name: string, alive: (pid: number) => boolean, now: number): Promise<boolean> {
  const temp = parseKeelTempName(name);
  if (!temp) return false;
  if (temp.pid === process.pid) return !isWriting(abs);
  if (!alive(temp.pid)) return true;
  const stat = await fs.stat(abs).catch(() => undefined);
  return stat !== undefined && now - stat.mtimeMs > STALE_AFTER_MS;
}
