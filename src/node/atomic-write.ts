// Atomic file writes: a temp file in the same folder, fsync, then rename over the target, so a
// crash never leaves a half-written file. The existing file's mode is kept.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export async function atomicWrite(abs: string, data: Uint8Array): Promise<void> {
  const dir = path.dirname(abs);
  await fs.mkdir(dir, { recursive: true });
  const mode = await fs.stat(abs).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const tmp = path.join(dir, `.${path.basename(abs)}.keel-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fh = await fs.open(tmp, 'wx', mode ?? 0o666);
    try {
      await fh.writeFile(data);
      if (mode !== undefined) await fh.chmod(mode); // the umask may have narrowed it
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, abs);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dir);
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
