// Temporary folders for tests, removed when the test process exits (whether the test passed
// or not), so runs do not pile folders up in the system's temp directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made: string[] = [];
let hooked = false;

/** A fresh folder named `keel-<prefix>-XXXXXX` in the temp directory, removed at exit. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `keel-${prefix}-`));
  made.push(dir);
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}

/** Also removes a folder made beside a scratch folder (e.g. a sibling that mimics its name). */
export function removeAtExit(dir: string): void {
  made.push(dir);
}
