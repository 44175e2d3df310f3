// Search without ripgrep: walks the workspace through the port with the same ignores as
// list_files, testing each line of each text file against a JS regular expression.
// Inject it into the Node port (`createNodeWorkspace(root, { fallbackSearch: searchByWalking })`).
import type { SearchMatch, SearchQuery, SearchResult, Workspace } from '../../kernel/index.js';
import { globMatcher } from '../ignore/gitignore.js';
import { walk } from '../ignore/walk.js';
import { decodeText, isBinary } from '../text/encoding.js';

const MAX_FILE_BYTES = 2 * 1024 * 1024;

export async function searchByWalking(ws: Workspace, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  const re = new RegExp(query.pattern);
  const accepts = query.glob ? globMatcher(query.glob) : () => true;
  const matches: SearchMatch[] = [];
  for await (const entry of walk(ws, query.path ?? '', { recursive: true, signal })) {
    if (entry.type !== 'file' || !accepts(entry.path) || query.exclude?.(entry.path)) continue;
    const st = await ws.stat(entry.path);
    if (!st || st.size > MAX_FILE_BYTES) continue;
    const bytes = await ws.readFile(entry.path).catch(() => undefined);
    if (!bytes || isBinary(bytes)) continue;
    const lines = decodeText(bytes).text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i]!)) continue;
      if (matches.length >= query.maxMatches) return { matches, truncated: true, engine: 'fallback' };
      matches.push({ path: entry.path, line: i + 1, text: lines[i]!.replace(/\r$/, '').slice(0, 1000) });
    }
  }
  return { matches, truncated: false, engine: 'fallback' };
}
