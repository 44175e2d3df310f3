// The last-resort search when there is no ripgrep and the composition root injected no
// fallback: a plain walk that skips .git and node_modules only. Composition roots should pass
// `searchByWalking` from src/tools, which honours .gitignore and .keelignore (src/node may not
// import src/tools, so it cannot default to it).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { WorkspaceError, type SearchMatch, type SearchQuery, type SearchResult } from '../kernel/index.js';
import { globPredicate } from './glob.js';

const SKIP = new Set(['.git', 'node_modules']);
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export async function basicSearch(root: string, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  let re: RegExp;
  try {
    re = new RegExp(query.pattern);
  } catch (err) {
    throw new WorkspaceError('io_error', `regex parse error: ${(err as Error).message}`);
  }
  const accepts = query.glob ? globPredicate(query.glob) : () => true;
  const matches: SearchMatch[] = [];
  const dirs = [query.path ?? ''];
  while (dirs.length && !signal.aborted) {
    const dir = dirs.shift()!;
    const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory() && !SKIP.has(e.name)) dirs.push(rel);
      if (!e.isFile() || !accepts(rel) || query.exclude?.(rel)) continue;
      if (await searchFile(path.join(root, rel), rel, re, matches, query.maxMatches))
        return { matches, truncated: true, engine: 'fallback' };
    }
  }
  return { matches, truncated: false, engine: 'fallback' };
}

/** True when the cap was reached. */
async function searchFile(abs: string, rel: string, re: RegExp, out: SearchMatch[], max: number): Promise<boolean> {
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st || st.size > MAX_FILE_BYTES) return false;
  const buf = await fs.readFile(abs).catch(() => undefined);
  if (!buf || buf.subarray(0, 8000).includes(0)) return false;
  const lines = buf.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i]!)) continue;
    if (out.length >= max) return true;
    out.push({ path: rel, line: i + 1, text: lines[i]!.replace(/\r$/, '').slice(0, 1000) });
  }
  return false;
}
