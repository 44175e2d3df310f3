// Sources a search model cites (Perplexity's `citations` URLs, or its `search_results`), kept as
// links: the answer's `[1]`, `[2]` markers become links through Markdown reference definitions
// added after the text (`[1]: <https://…>`), which a Markdown view renders as links and a
// terminal shows as a list. Only http(s) URLs without spaces or angle brackets are written: the
// URLs come from the server, and a Markdown line must not be able to turn into anything else.

export interface Citations {
  citations?: unknown;
  search_results?: unknown;
}

const MAX_CITATIONS = 50;
const MAX_URL_CHARS = 2_000;

/** The reference definitions for a turn's sources, or '' when it cited none. */
export function citationLinks(c: Citations): string {
  const urls = citedUrls(c);
  if (urls.length === 0) return '';
  const lines = urls.map((url, i) => (url ? `[${i + 1}]: <${url}>` : '')).filter(Boolean);
  return lines.length > 0 ? `\n\n${lines.join('\n')}\n` : '';
}

/** The cited URLs in order (a position kept empty for an unusable one, so numbers stay right). */
function citedUrls(c: Citations): string[] {
  const list = Array.isArray(c.citations) ? c.citations : Array.isArray(c.search_results) ? c.search_results : [];
  return list.slice(0, MAX_CITATIONS).map((item) => safeUrl(typeof item === 'string' ? item : (item as { url?: unknown } | null)?.url));
}

function safeUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_URL_CHARS || /[\s<>]/.test(value)) return '';
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '';
  } catch {
    return '';
  }
}
