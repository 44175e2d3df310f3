// A real small file system that fills up, for the full-disk tests: a tmpfs of a few dozen KiB
// mounted on a scratch folder (mounting needs root, which CI has), filled to its last page on
// demand, unmounted when the test ends or the process exits.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scratchDir } from './scratch.js';

const PAGE = 4096;
const mounted = new Set<string>();
process.once('exit', () => {
  for (const dir of mounted) unmount(dir);
});

export interface Tmpfs {
  readonly dir: string;
  /** Fills the file system, then frees `pages` whole pages again (0: not one byte is left). */
  fill(pages?: number): void;
  /** Removes the filler: the space is free again. */
  free(): void;
  unmount(): void;
}

/** A mounted tmpfs of `kib` KiB, or the reason none can be mounted here (not root, mount refused). */
export function mountTmpfs(kib: number): Tmpfs | string {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root (CI runs as root)';
  const dir = path.join(scratchDir('tmpfs'), 'fs');
  fs.mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    return `mount -t tmpfs failed: ${(err as Error).message}`;
  }
  mounted.add(dir);
  const filler = path.join(dir, 'filler.bin');
  return {
    dir,
    fill(pages = 0) {
      const fd = fs.openSync(filler, 'a');
      const chunk = Buffer.alloc(PAGE);
      try {
        for (;;) if (fs.writeSync(fd, chunk) < PAGE) break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        fs.closeSync(fd);
      }
      const size = fs.statSync(filler).size;
      fs.truncateSync(filler, Math.max(0, Math.floor(size / PAGE) * PAGE - pages * PAGE));
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      unmount(dir);
    },
  };
}

function unmount(dir: string): void {
  if (!mounted.delete(dir)) return;
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  } catch {
    // Already gone.
  }
}
