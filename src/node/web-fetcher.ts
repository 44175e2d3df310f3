// The web port on Node: one GET through node:http(s), with redirects handed back (never
// followed here), a fixed set of headers (no cookies, no credentials, nothing from the
// workspace), the body read as a stream (decompressed as it comes) and cut at the size cap, and a
// deadline. Only http: and https: URLs without user names or passwords are fetched, and only
// from public addresses (web-address.ts): the host is resolved once, every address it resolves
// to is checked, and the connection goes to the address that was checked — never resolved again,
// so a name that answers a public address to the check and a private one to the connection
// (DNS rebinding) reaches nothing. Hosts the user allows (`allowHosts`: keel run --allow-host,
// the user setting keel.web.allowHosts) skip the address check, as a local docs server needs.
import { lookup as dnsLookup } from 'node:dns/promises';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { WebError, type WebFetcher, type WebRequest, type WebResponse } from '../kernel/index.js';
import { addressRefusal } from './web-address.js';

const HEADERS = {
  'user-agent': 'Keel-web_fetch/0.1 (+coding agent; fetches one page a user approved)',
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/json;q=0.8,*/*;q=0.1',
  'accept-encoding': 'gzip, deflate, br',
};

/** A resolved address of a host. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface WebFetcherOptions {
  /** Hosts (`host` or `host:port`) the user lets web_fetch reach though they are not public; read at each fetch. */
  allowHosts?: () => readonly string[];
  /** Resolves a host name to its addresses (tests give their own; else the system's resolver). */
  resolve?: (host: string) => Promise<readonly ResolvedAddress[]>;
}

export function createWebFetcher(options: WebFetcherOptions = {}): WebFetcher {
  const resolve = options.resolve ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));
  return { get: (request, signal) => fetchOnce(request, signal, options.allowHosts?.() ?? [], resolve) };
}

async function fetchOnce(
  request: WebRequest,
  signal: AbortSignal,
  allowHosts: readonly string[],
  resolve: (host: string) => Promise<readonly ResolvedAddress[]>,
): Promise<WebResponse> {
  const url = checkedUrl(request.url);
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  let response: IncomingMessage;
  try {
    const target = await connectTarget(url, allowHosts, resolve);
    response = await get(url, target, both);
  } catch (err) {
    throw failed(err, signal, deadline, request.timeoutMs);
  }
  const location = response.headers.location;
  if (response.statusCode! >= 300 && response.statusCode! < 400 && location) {
    response.destroy();
    return { type: 'redirect', url: url.href, status: response.statusCode!, location };
  }
  const { contentType, charset } = mediaType(response.headers['content-type'] ?? '');
  try {
    const { body, truncated } = await readCapped(decoded(response), request.maxBytes, () => response.destroy());
    return { type: 'response', url: url.href, status: response.statusCode!, contentType, ...(charset ? { charset } : {}), body, truncated };
  } catch (err) {
    throw failed(err, signal, deadline, request.timeoutMs);
  }
}

/** The URL as it will be requested; refused unless http(s) without credentials. */
function checkedUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebError('invalid_url', `Not an absolute URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebError('invalid_url', `Only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new WebError('invalid_url', 'A URL with a user name or password is not fetched.');
  return url;
}

/**
 * The address to connect to: the host's, checked. An allowed host is resolved as usual; any
 * other must resolve only to public addresses (one private answer among public ones refuses it).
 */
async function connectTarget(
  url: URL,
  allowHosts: readonly string[],
  resolve: (host: string) => Promise<readonly ResolvedAddress[]>,
): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = isAllowedHost(url, allowHosts);
  const literal = isIP(host);
  // localhost and its subdomains are this machine whatever a resolver says (RFC 6761).
  if (!allowed && /(^|\.)localhost\.?$/.test(host)) throw refused(url, 'this machine (localhost)');
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw new WebError('network', `${host} has no address.`);
  if (!allowed)
    for (const a of addresses) {
      const why = addressRefusal(a.address);
      if (why) throw refused(url, literal ? why : `at ${a.address}, ${why}`);
    }
  return addresses[0]!;
}

function refused(url: URL, why: string): WebError {
  return new WebError(
    'refused',
    `${url.host} is ${why}: web_fetch reads only public addresses. The user can allow a host with keel run --allow-host ${url.host} or the keel.web.allowHosts setting.`,
  );
}

/** Whether the user allowed this URL's host: `host` (any port) or `host:port` (an IPv6 address in brackets), in any spelling the URL parser reads. */
function isAllowedHost(url: URL, allowHosts: readonly string[]): boolean {
  const host = url.hostname.replace(/\.$/, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowHosts.some((entry) => {
    const allowed = allowedHost(entry);
    return allowed !== undefined && allowed.host === host && (allowed.port === undefined || allowed.port === port);
  });
}

function allowedHost(entry: string): { host: string; port?: string } | undefined {
  const text = entry.trim();
  // A bare IPv6 address has colons of its own: it names no port.
  const bareIpv6 = !text.startsWith('[') && text.split(':').length > 2;
  const m = bareIpv6 ? undefined : /^(.+?)(?::(\d{1,5}))?$/.exec(text);
  const name = bareIpv6 ? `[${text}]` : m?.[1];
  if (!name) return undefined;
  try {
    const host = new URL(`http://${name}/`).hostname.replace(/\.$/, '');
    return m?.[2] === undefined ? { host } : { host, port: String(Number(m[2])) };
  } catch {
    return undefined;
  }
}

/** One GET to the checked address, the URL's host named in the request and in TLS. */
function get(url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  // The connection's only name lookup: the address checked above.
  const pinned: LookupFunction = (_host, options, done) => {
    if (options.all) done(null, [target]);
    else done(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'GET', headers: HEADERS, lookup: pinned, signal, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** The body as sent before its content-encoding. */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .toLowerCase()
    .trim();
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!inflate) return response;
  response.on('error', (err) => inflate.destroy(err));
  return response.pipe(inflate);
}

async function readCapped(body: Readable, maxBytes: number, stop: () => void): Promise<{ body: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    const value = chunk as Buffer;
    const room = maxBytes - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      stop();
      body.destroy();
      return { body: concat(chunks, maxBytes), truncated: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { body: concat(chunks, size), truncated: false };
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
  if (err instanceof WebError) return err;
  if (signal.aborted) return new WebError('cancelled', 'The fetch was cancelled.');
  if (deadline.aborted) return new WebError('timeout', `No complete answer within ${Math.round(timeoutMs / 1000)} s.`);
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const detail = e?.code ?? e?.cause?.code ?? e?.message ?? String(err);
  return new WebError('network', `The request failed: ${detail}`);
}
