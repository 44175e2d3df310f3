// The last-resort search when there is no ripgrep and the composition root injected no
// fallback: reads each given file and tests its lines with a JS regular expression, naming the
// files it skips (over the size limit, or binary with a match) as the other engines do. Composition roots should pass `searchByWalking` from src/tools
// (it reads through the Workspace port; src/node may not import src/tools).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  SEARCH_MAX_FILE_BYTES,
  WorkspaceError,
  type SearchMatch,
  type SearchQuery,
  type SearchResult,
  type SkippedFile,
} from '../kernel/index.js';

export async function basicSearch(root: string, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  let re: RegExp;
  try {
    re = new RegExp(query.pattern);
  } catch (err) {
    throw new WorkspaceError('io_error', `regex parse error: ${(err as Error).message}`);
  }
  const matches: SearchMatch[] = [];
  const skipped: SkippedFile[] = [];
  const done = (truncated: boolean): SearchResult => ({ matches, truncated, engine: 'fallback', ...(skipped.length ? { skipped } : {}) });
  for (const rel of query.files) {
    if (signal.aborted) break;
    if (await searchFile(path.join(root, rel), rel, re, { matches, skipped }, query.maxMatches)) return done(true);
  }
  return done(false);
}

/** True when the cap was reached. */
async function searchFile(
  abs: string,
  rel: string,
  re: RegExp,
  out: { matches: SearchMatch[]; skipped: SkippedFile[] },
  max: number,
): Promise<boolean> {
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st?.isFile()) return false;
  if (st.size > SEARCH_MAX_FILE_BYTES) {
    out.skipped.push({ path: rel, reason: 'too_large', bytes: st.size });
    return false;
  }
  const buf = await fs.readFile(abs).catch(() => undefined);
  if (!buf) return false;
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    if (
      buf
        .subarray(0, nul)
        .toString('utf8')
        .split('\n')
        .some((l) => re.test(l))
    )
      out.skipped.push({ path: rel, reason: 'binary' });
    return false;
  }
  const lines = buf.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i]!)) continue;
    if (out.matches.length >= max) return true;
    out.matches.push({ path: rel, line: i + 1, text: lines[i]!.replace(/\r$/, '').slice(0, 1000) });
  }
  return false;
}
