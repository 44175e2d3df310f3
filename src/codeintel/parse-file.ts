// One workspace file read and parsed: what the index stores for it. The same function runs on the
// main thread and in the parse workers, so a file's entry does not depend on who parsed it.
import { parseSource } from './extract.js';
import { languageOf } from './languages.js';
import type { FileOutcome } from './parse-protocol.js';
import { readSource } from './source-files.js';

/** Reads `path` under `root` and parses it; `unreadable` when it cannot be read, is binary or has no language. */
export async function parseWorkspaceFile(root: string, path: string): Promise<FileOutcome> {
  const spec = languageOf(path);
  const text = spec && readSource(root, path);
  if (!spec || text === undefined || text.includes('\0')) return { type: 'unreadable' };
  return { type: 'parsed', file: await parseSource(text, spec) };
}
