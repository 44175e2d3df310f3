// The last-resort search when there is no ripgrep and the composition root injected no
// fallback: reads each given file and tests its lines with a JS regular expression, skipping
// the files every engine skips. Composition roots should pass `searchByWalking` from src/tools
// (it reads through the Workspace port; src/node may not import src/tools).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { SEARCH_MAX_FILE_BYTES, WorkspaceError, type SearchMatch, type SearchQuery, type SearchResult } from '../kernel/index.js';

export async function basicSearch(root: string, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  let re: RegExp;
  try {
    re = new RegExp(query.pattern);
  } catch (err) {
    throw new WorkspaceError('io_error', `regex parse error: ${(err as Error).message}`);
  }
  const matches: SearchMatch[] = [];
  for (const rel of query.files) {
    if (signal.aborted) break;
    if (await searchFile(path.join(root, rel), rel, re, matches, query.maxMatches)) return { matches, truncated: true, engine: 'fallback' };
  }
  return { matches, truncated: false, engine: 'fallback' };
}

/** True when the cap was reached. */
async function searchFile(abs: string, rel: string, re: RegExp, out: SearchMatch[], max: number): Promise<boolean> {
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st?.isFile() || st.size > SEARCH_MAX_FILE_BYTES) return false;
  const buf = await fs.readFile(abs).catch(() => undefined);
  if (!buf || buf.includes(0)) return false;
  const lines = buf.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i]!)) continue;
    if (out.length >= max) return true;
    out.push({ path: rel, line: i + 1, text: lines[i]!.replace(/\r$/, '').slice(0, 1000) });
  }
  return false;
}
