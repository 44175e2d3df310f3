// The JS search engine, for when there is no ripgrep: reads each file it is given through the
// port and tests each line against a JS regular expression. It skips what ripgrep skips: files
// over the size limit and files with a NUL character. Inject it into the Node port
// (`createNodeWorkspace(root, { fallbackSearch: searchByWalking })`); search_files chose the
// files by walking with list_files' ignore rules.
import {
  SEARCH_MAX_FILE_BYTES,
  WorkspaceError,
  type SearchMatch,
  type SearchQuery,
  type SearchResult,
  type Workspace,
} from '../../kernel/index.js';
import { decodeText } from '../text/encoding.js';

export async function searchByWalking(ws: Workspace, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  const re = compile(query.pattern);
  const matches: SearchMatch[] = [];
  for (const file of query.files) {
    if (signal.aborted) break;
    const st = await ws.stat(file);
    if (st?.type !== 'file' || st.size > SEARCH_MAX_FILE_BYTES) continue;
    const bytes = await ws.readFile(file).catch(() => undefined);
    const text = bytes && decodeText(bytes).text;
    if (!text || text.includes('\0')) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i]!)) continue;
      if (matches.length >= query.maxMatches) return { matches, truncated: true, engine: 'fallback' };
      matches.push({ path: file, line: i + 1, text: lines[i]!.replace(/\r$/, '').slice(0, 1000) });
    }
  }
  return { matches, truncated: false, engine: 'fallback' };
}

/** A bad pattern is reported as ripgrep reports it, so search_files answers the same on both engines. */
function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (err) {
    throw new WorkspaceError('io_error', `regex parse error: ${(err as Error).message}`);
  }
}
