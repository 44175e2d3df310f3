// search_files' engine-independent half: the files to search are list_files' walk (the same
// .gitignore and .keelignore rules, nested, BOM-tolerant) filtered by the glob, handed to the
// port's search (ripgrep or the JS fallback) in batches, in walk order, until enough matches.
// Files read_file asks about because they may hold secrets (.env…) are never searched: no line
// of them leaves.
import type { SearchResult, Workspace } from '../../kernel/index.js';
import { walkFolders } from '../ignore/walk.js';
import { isSecretFile } from '../policy/protected-paths.js';
import { globMatcher } from './glob.js';

export interface WorkspaceSearch {
  pattern: string;
  /** Workspace-relative folder (or file) to search; the root when absent. */
  path?: string;
  glob?: string;
  maxMatches: number;
}

/** Files per port call: one call (one rg run) for most workspaces; a large one stops walking once a batch gave enough matches. */
const BATCH = 4096;

export async function searchWorkspace(ws: Workspace, q: WorkspaceSearch, signal: AbortSignal): Promise<SearchResult> {
  const result: SearchResult = { matches: [], truncated: false, engine: 'fallback' };
  let searched = false;
  for await (const files of batches(ws, q, signal)) {
    const r = await ws.search({ pattern: q.pattern, files, maxMatches: q.maxMatches - result.matches.length }, signal);
    [result.engine, searched] = [r.engine, true];
    result.matches.push(...r.matches);
    if (r.skipped) (result.skipped ??= []).push(...r.skipped);
    if (r.truncated) return { ...result, truncated: true };
  }
  // No file to search: still ask the port, so the result names its engine.
  if (!searched) return ws.search({ pattern: q.pattern, files: [], maxMatches: q.maxMatches }, signal);
  return result;
}

/** The files list_files would show under the path that the glob accepts, in batches. */
async function* batches(ws: Workspace, q: WorkspaceSearch, signal: AbortSignal): AsyncGenerator<string[]> {
  const start = q.path ?? '';
  const inGlob = q.glob ? globMatcher(q.glob) : () => true;
  const accepts = (p: string) => inGlob(p) && !isSecretFile(p);
  if (start !== '' && (await ws.stat(start))?.type === 'file') {
    if (accepts(start)) yield [start];
    return;
  }
  let batch: string[] = [];
  for await (const entries of walkFolders(ws, start, { recursive: true, signal })) {
    for (const e of entries) if (e.type === 'file' && accepts(e.path)) batch.push(e.path);
    if (batch.length < BATCH) continue;
    yield batch;
    batch = [];
  }
  if (batch.length) yield batch;
}
