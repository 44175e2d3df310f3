// The web port on Node: one GET through Node's fetch, with redirects handed back (never
// followed here), a fixed set of headers (no cookies, no credentials, nothing from the
// workspace), the body read as a stream and cut at the size cap, and a deadline. Only http: and
// https: URLs without user names or passwords are fetched.
import { WebError, type WebFetcher, type WebRequest, type WebResponse } from '../kernel/index.js';

const HEADERS = {
  'user-agent': 'Keel-web_fetch/0.1 (+coding agent; fetches one page a user approved)',
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/json;q=0.8,*/*;q=0.1',
};

export function createWebFetcher(): WebFetcher {
  return { get: fetchOnce };
}

async function fetchOnce(request: WebRequest, signal: AbortSignal): Promise<WebResponse> {
  const url = checkedUrl(request.url);
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', headers: HEADERS, redirect: 'manual', signal: both, credentials: 'omit' });
  } catch (err) {
    throw failed(err, signal, deadline, request.timeoutMs);
  }
  if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
    await response.body?.cancel().catch(() => undefined);
    return { type: 'redirect', url, status: response.status, location: response.headers.get('location')! };
  }
  const { contentType, charset } = mediaType(response.headers.get('content-type') ?? '');
  try {
    const { body, truncated } = await readCapped(response, request.maxBytes);
    return { type: 'response', url, status: response.status, contentType, ...(charset ? { charset } : {}), body, truncated };
  } catch (err) {
    throw failed(err, signal, deadline, request.timeoutMs);
  }
}

/** The URL as it will be requested; refused unless http(s) without credentials. */
function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebError('invalid_url', `Not an absolute URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebError('invalid_url', `Only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new WebError('invalid_url', 'A URL with a user name or password is not fetched.');
  return url.href;
}

async function readCapped(response: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { body: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: concat(chunks, size), truncated: false };
    const room = maxBytes - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      await reader.cancel().catch(() => undefined);
      return { body: concat(chunks, maxBytes), truncated: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function mediaType(header: string): { contentType: string; charset?: string } {
  const [type = '', ...params] = header.split(';');
  const charset = params
    .map((p) => p.trim().toLowerCase())
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  return { contentType: type.trim().toLowerCase(), ...(charset ? { charset } : {}) };
}

function failed(err: unknown, signal: AbortSignal, deadline: AbortSignal, timeoutMs: number): WebError {
  if (signal.aborted) return new WebError('cancelled', 'The fetch was cancelled.');
  if (deadline.aborted) return new WebError('timeout', `No complete answer within ${Math.round(timeoutMs / 1000)} s.`);
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new WebError('network', `The request failed: ${detail}`);
}
