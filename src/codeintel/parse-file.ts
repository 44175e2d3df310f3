// One workspace file read and parsed: what the index stores for it. The same function runs on the
// main thread and in the parse workers, so a file's entry does not depend on who parsed it — but
// for a file given up (parse-limits.ts): too deeply nested anywhere, or out of time, where the
// main thread's shorter deadline hands the file to a worker (parse-pool.ts).
import { parseSource } from './extract.js';
import { languageOf } from './languages.js';
import { type Deadline, deadlineIn, PARSE_FILE_MS, ParseRefused } from './parse-limits.js';
import type { FileOutcome } from './parse-protocol.js';
import { readSource } from './source-files.js';

/**
 * Reads `path` under `root` and parses it by the deadline; `unreadable` when it cannot be read, is
 * binary or has no language, `skipped` when it nests too deep or the deadline passed.
 */
export async function parseWorkspaceFile(root: string, path: string, deadline: Deadline = deadlineIn(PARSE_FILE_MS)): Promise<FileOutcome> {
  const spec = languageOf(path);
  const text = spec && readSource(root, path);
  if (!spec || text === undefined || text.includes('\0')) return { type: 'unreadable' };
  try {
    return { type: 'parsed', file: await parseSource(text, spec, deadline) };
  } catch (err) {
    if (err instanceof ParseRefused) return { type: 'skipped', reason: err.reason };
    throw err;
  }
}
