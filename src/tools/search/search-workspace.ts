// search_files' engine-independent half: the files to search are list_files' walk (the same
// .gitignore and .keelignore rules, nested, BOM-tolerant) filtered by the glob, handed to the
// port's search (ripgrep or the JS fallback) in batches, in walk order, until enough matches.
import type { SearchResult, Workspace } from '../../kernel/index.js';
import { walk } from '../ignore/walk.js';
import { globMatcher } from './glob.js';

export interface WorkspaceSearch {
  pattern: string;
  /** Workspace-relative folder (or file) to search; the root when absent. */
  path?: string;
  glob?: string;
  maxMatches: number;
}

/** Files per port call: small at first, so a search with many matches ends early; then doubling. */
const FIRST_BATCH = 256;
const MAX_BATCH = 8192;

export async function searchWorkspace(ws: Workspace, q: WorkspaceSearch, signal: AbortSignal): Promise<SearchResult> {
  const result: SearchResult = { matches: [], truncated: false, engine: 'fallback' };
  let searched = false;
  for await (const files of batches(candidates(ws, q, signal))) {
    const r = await ws.search({ pattern: q.pattern, files, maxMatches: q.maxMatches - result.matches.length }, signal);
    [result.engine, searched] = [r.engine, true];
    result.matches.push(...r.matches);
    if (r.truncated) return { ...result, truncated: true };
  }
  // No file to search: still ask the port, so the result names its engine.
  if (!searched) return ws.search({ pattern: q.pattern, files: [], maxMatches: q.maxMatches }, signal);
  return result;
}

/** The files list_files would show under the path, that the glob accepts. */
async function* candidates(ws: Workspace, q: WorkspaceSearch, signal: AbortSignal): AsyncGenerator<string> {
  const start = q.path ?? '';
  const accepts = q.glob ? globMatcher(q.glob) : () => true;
  if (start !== '' && (await ws.stat(start))?.type === 'file') {
    if (accepts(start)) yield start;
    return;
  }
  for await (const entry of walk(ws, start, { recursive: true, signal })) {
    if (entry.type === 'file' && accepts(entry.path)) yield entry.path;
  }
}

async function* batches(files: AsyncIterable<string>): AsyncGenerator<string[]> {
  let [batch, size]: [string[], number] = [[], FIRST_BATCH];
  for await (const f of files) {
    batch.push(f);
    if (batch.length < size) continue;
    yield batch;
    [batch, size] = [[], Math.min(size * 2, MAX_BATCH)];
  }
  if (batch.length) yield batch;
}
