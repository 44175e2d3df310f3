// Atomic file writes: a temp file in the same folder, fsync, then rename over the target, so a
// crash never leaves a half-written file. The existing file's mode is kept. The temp file's name
// is Keel's (src/kernel/temp-files.ts): walkers never show it, and the sweep of a later run
// removes it when this process died before the rename (stale-temp.ts).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { keelTempName } from '../kernel/temp-files.js';

/** Temp files this process is writing now: the sweep never removes these. */
const inFlight = new Set<string>();

export function isWriting(abs: string): boolean {
  return inFlight.has(abs);
}

/**
 * `durable: false` skips the fsyncs (a checkpoint blob: thousands per scan, and a torn one fails
 * its hash check); the rename still makes the file appear whole or not at all.
 */
export async function atomicWrite(abs: string, data: Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = path.dirname(abs);
  await fs.mkdir(dir, { recursive: true });
  const mode = await fs.stat(abs).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const tmp = path.join(dir, keelTempName(path.basename(abs), process.pid, randomBytes(4).toString('hex')));
  inFlight.add(tmp);
  try {
    const fh = await fs.open(tmp, 'wx', mode ?? 0o666);
    try {
      await fh.writeFile(data);
      if (mode !== undefined) await fh.chmod(mode); // the umask may have narrowed it
      if (durable) await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, abs);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  } finally {
    inFlight.delete(tmp);
  }
  if (durable) await syncDir(dir);
}

/** Makes the rename itself durable; not every platform allows opening a folder. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await fs.open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Best effort.
  }
}
