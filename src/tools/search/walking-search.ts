// The JS search engine, for when there is no ripgrep: reads each file it is given through the
// port and tests each line against a JS regular expression. Files over the size limit are not
// read and are named as skipped; a file with a NUL character is named when it matched before
// the NUL, as ripgrep names it, and its lines are not shown. Inject it into the Node port
// (`createNodeWorkspace(root, { fallbackSearch: searchByWalking })`); search_files chose the
// files by walking with list_files' ignore rules.
import {
  SEARCH_MAX_FILE_BYTES,
  WorkspaceError,
  type SearchMatch,
  type SearchQuery,
  type SearchResult,
  type SkippedFile,
  type Workspace,
} from '../../kernel/index.js';
import { decodeText } from '../text/encoding.js';

export async function searchByWalking(ws: Workspace, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  const re = compile(query.pattern);
  const matches: SearchMatch[] = [];
  const skipped: SkippedFile[] = [];
  const done = (truncated: boolean): SearchResult => ({ matches, truncated, engine: 'fallback', ...(skipped.length ? { skipped } : {}) });
  for (const file of query.files) {
    if (signal.aborted) break;
    const st = await ws.stat(file);
    if (st?.type !== 'file') continue;
    if (st.size > SEARCH_MAX_FILE_BYTES) {
      skipped.push({ path: file, reason: 'too_large', bytes: st.size });
      continue;
    }
    const bytes = await ws.readFile(file).catch(() => undefined);
    const text = bytes && decodeText(bytes).text;
    if (!text) continue;
    const nul = text.indexOf('\0');
    if (nul !== -1) {
      // As ripgrep: searched up to the NUL, named when it matched there, its lines not shown.
      if (
        text
          .slice(0, nul)
          .split('\n')
          .some((l) => re.test(l))
      )
        skipped.push({ path: file, reason: 'binary' });
      continue;
    }
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i]!)) continue;
      if (matches.length >= query.maxMatches) return done(true);
      matches.push({ path: file, line: i + 1, text: lines[i]!.replace(/\r$/, '').slice(0, 1000) });
    }
  }
  return done(false);
}

/** A bad pattern is reported as ripgrep reports it, so search_files answers the same on both engines. */
function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (err) {
    throw new WorkspaceError('io_error', `regex parse error: ${(err as Error).message}`);
  }
}
