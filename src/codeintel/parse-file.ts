// One workspace file read and parsed: what the index stores for it. The same function runs on the
// main thread and in the parse workers, so a file's entry does not depend on who parsed it — but
// for a file given up (parse-limits.ts): too deeply nested anywhere, or out of time, where the
// main thread's shorter deadline hands the file to a worker (parse-pool.ts). The bytes parsed are
// hashed here, so the index's disk cache (index-cache.ts) knows later what content an entry came from.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText } from '../tools/text/encoding.js';
import { parseSource } from './extract.js';
import { languageOf } from './languages.js';
import { type Deadline, deadlineIn, PARSE_FILE_MS, ParseRefused } from './parse-limits.js';
import type { FileOutcome } from './parse-protocol.js';

/**
 * Reads `path` under `root` and parses it by the deadline; `unreadable` when it cannot be read, is
 * binary or has no language, `skipped` when it nests too deep or the deadline passed.
 */
export async function parseWorkspaceFile(root: string, path: string, deadline: Deadline = deadlineIn(PARSE_FILE_MS)): Promise<FileOutcome> {
  const spec = languageOf(path);
  const bytes = spec && readBytes(root, path);
  const text = bytes && decodeText(bytes).text;
  if (!spec || !bytes || text === undefined || text.includes('\0')) return { type: 'unreadable' };
  try {
    return { type: 'parsed', file: await parseSource(text, spec, deadline), hash: contentHash(bytes) };
  } catch (err) {
    if (err instanceof ParseRefused) return { type: 'skipped', reason: err.reason };
    throw err;
  }
}

/** What the disk cache compares a file's content by: short, and cheap beside a parse. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64url');
}

/** A file's bytes, or undefined when it cannot be read (gone, a folder, no permission). */
export function readBytes(root: string, rel: string): Uint8Array | undefined {
  try {
    return readFileSync(join(root, rel));
  } catch {
    return undefined;
  }
}
