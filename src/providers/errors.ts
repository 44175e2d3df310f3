// Error classification shared by the adapters. Each adapter reduces its SDK's error to a
// neutral `ApiFailure`; this file decides kind, retryability and retry-after from it, so both
// providers classify the same HTTP facts the same way.
import type { ModelError, ModelErrorKind } from '../kernel/contracts/index.js';
import { redactSecrets } from '../kernel/redact.js';

/** What an adapter learned from a failed request or an `error` event in the stream. */
export interface ApiFailure {
  /** HTTP status; undefined for an error event inside a 200 stream. */
  status?: number;
  /** The API's error type / code (`overloaded_error`, `insufficient_quota`, …). */
  type?: string;
  code?: string;
  message: string;
  headers?: { get(name: string): string | null };
}

/** How an adapter names itself and the setting that fixes a rejected key. */
export interface VendorInfo {
  /** "Anthropic", "OpenAI" or "The server at http://…". */
  label: string;
  keyEnvVar: string;
  /** Where requests go (the base URL or the vendor's API): a failed connection names it. */
  url?: string | undefined;
}

/** Thrown inside an attempt to end it with an already classified error. */
export class TurnFailure extends Error {
  constructor(readonly error: ModelError) {
    super(error.message);
    this.name = 'TurnFailure';
  }
}

/** An `error` event inside a 200 stream (Anthropic's `event: error`, a chat server's `data: {"error": …}`). */
export class StreamErrorEvent extends Error {
  /** What classifyApiFailure needs: no HTTP status, as the stream itself was a 200. */
  readonly failure: ApiFailure;
  constructor(payload: { message?: string; type?: string; code?: string | number | null }) {
    super(typeof payload.message === 'string' ? payload.message : 'error event in the stream');
    this.name = 'StreamErrorEvent';
    const code = payload.code;
    this.failure = { type: typeof payload.type === 'string' ? payload.type : undefined, message: this.message };
    // A numeric code is the HTTP status the server means (`"code": 400` from a gateway): classified as one.
    if (typeof code === 'number' && Number.isInteger(code) && code >= 400 && code < 600) this.failure.status = code;
    else if (typeof code === 'string' && code !== '') this.failure.code = code;
  }
}

export function modelError(
  kind: ModelErrorKind,
  message: string,
  retryable: boolean,
  extra: { status?: number; retryAfterMs?: number } = {},
): ModelError {
  // SDK and transport messages may quote request headers: the adapter removes the key it sends
  // (withoutKey); the runtime removes anything else credential-shaped before the error is logged.
  const error: ModelError = { kind, message, retryable };
  if (extra.status !== undefined) error.status = extra.status;
  if (extra.retryAfterMs !== undefined) error.retryAfterMs = extra.retryAfterMs;
  return error;
}

/** The error with the key this adapter sends removed from its message (quoted whole or in parts). */
export function withoutKey(error: ModelError, apiKey: string | undefined): ModelError {
  return apiKey ? { ...error, message: redactSecrets(error.message, [apiKey]) } : error;
}

export const cancelledError = (): ModelError => modelError('cancelled', 'The request was cancelled.', false);

/** How to set the key, in the words of both hosts: the CLI reads only the variable. */
export function keyHint(vendor: VendorInfo): string {
  return `Set the ${vendor.keyEnvVar} environment variable (keel), or run “Keel: Set API Key” (VS Code).`;
}

/** `retry-after-ms` (milliseconds) wins over `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(headers: ApiFailure['headers'], now: number = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const QUOTA = /insufficient_quota|quota|billing|credit balance|out of credits|payment/i;
const CONTEXT =
  /prompt is too long|context[ _]length|context window|maximum context|too many tokens|reduce the length|request_too_large|input is too long/i;

/** The SDKs' message for an error response without a body ("502 status code (no body)"): no words of the server's. */
const SDK_NO_BODY = /^\d{3} status code \(no body\)$/;
const STATUS_NAMES: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What the server said, or — when it said nothing — that, in words (never the SDK's placeholder). */
function detailOf(f: ApiFailure, tag: string): string {
  if (f.message && !SDK_NO_BODY.test(f.message)) return f.message;
  if (tag) return tag;
  const name = f.status === undefined ? undefined : STATUS_NAMES[f.status];
  return `it gave no reason${f.status === undefined ? '' : ` (HTTP ${f.status}${name ? ` ${name}` : ''})`}`;
}

/** The Responses API's `response.failed` codes that are the request's fault (ResponseError): resending repeats them. */
const RESPONSES_REQUEST_FAULTS = /invalid_prompt|image|bio_policy|data_residency_mismatch/;

export function classifyApiFailure(f: ApiFailure, vendor: VendorInfo): ModelError {
  const retryAfterMs = parseRetryAfter(f.headers);
  const status = f.status;
  const tag = `${f.type ?? ''} ${f.code ?? ''}`;
  const detail = detailOf(f, tag.trim());
  const extra = { status, retryAfterMs };

  if (status === 401 || /authentication_error|invalid_api_key/.test(tag))
    return modelError('auth', `${vendor.label} rejected the API key (401). ${keyHint(vendor)}`, false, extra);
  if (status === 403 || /permission_error/.test(tag))
    return modelError('auth', `${vendor.label} refused the request (403): ${detail}`, false, extra);
  if (status === 402 || QUOTA.test(tag) || (status === 429 && QUOTA.test(f.message)))
    return modelError('rate_limited', `${vendor.label} reports an exhausted quota or billing problem: ${detail}`, false, extra);
  if (status === 429 || /rate_limit/.test(tag))
    return modelError('rate_limited', `${vendor.label} is turning requests away for now (too many requests): ${detail}`, true, extra);
  if (status === 529 || status === 503 || /overloaded/.test(tag))
    return modelError('overloaded', `${vendor.label} is overloaded: ${detail}`, true, extra);
  if (status === 413 || CONTEXT.test(f.message) || /context_length_exceeded|request_too_large/.test(tag))
    return modelError('context_overflow', `The conversation is too long for the model: ${detail}`, false, extra);
  if (status === 408) return modelError('network', `The request timed out: ${detail}`, true, extra);
  if (status !== undefined && status >= 400 && status < 500)
    return modelError('bad_request', `${vendor.label} rejected the request (${status}): ${detail}`, false, extra);
  if (/invalid_request|bad_request|not_found|unsupported/.test(tag) || RESPONSES_REQUEST_FAULTS.test(tag))
    return modelError('bad_request', `${vendor.label} rejected the request: ${detail}`, false, extra);
  // 5xx and error events without a known type: the server's side, worth another try.
  return modelError('unknown', `${vendor.label} had a problem on its side${status ? ` (${status})` : ''}: ${detail}`, true, extra);
}

/**
 * A whole JSON body where a stream was asked for that is no answer (an error body, or anything
 * else): reported once, never retried — the request was answered, and resending it bills it again.
 */
export function jsonAnswerFailure(body: unknown, vendor: VendorInfo): TurnFailure {
  const error = (body as { error?: unknown } | null)?.error;
  if (error && typeof error === 'object') {
    const e = error as { type?: unknown; code?: unknown; message?: unknown };
    const failure = new StreamErrorEvent({
      type: typeof e.type === 'string' ? e.type : undefined,
      code: typeof e.code === 'string' || typeof e.code === 'number' ? e.code : undefined,
      message: typeof e.message === 'string' ? e.message : JSON.stringify(error).slice(0, 300),
    }).failure;
    return new TurnFailure({ ...classifyApiFailure(failure, vendor), retryable: false });
  }
  return new TurnFailure(
    modelError(
      'unknown',
      `${vendor.label} answered with a JSON body that is not a reply instead of a stream; the request was not sent again.`,
      false,
    ),
  );
}

/**
 * Errors that are not API answers: aborts, dropped connections, garbled streams. `url` is where
 * the request went: a connection that could not be made names it and the cause at once (the
 * system's code, found down the cause chain: the SDK's "Connection error." wraps fetch's "fetch
 * failed", which wraps the socket's ECONNREFUSED), and is not retried: nothing listens there,
 * or the name does not resolve, until the user starts the server or fixes the URL.
 */
export function classifyTransportError(e: unknown, signal: AbortSignal, url?: string): ModelError {
  if (signal.aborted) return cancelledError();
  const err = e as { name?: string; message?: string } | undefined;
  const name = err?.name ?? '';
  if (name === 'AbortError' || name === 'APIUserAbortError') return cancelledError();
  const { code, message } = rootCause(e);
  const unreachable = code ? UNREACHABLE[code] : undefined;
  const at = url ? ` to ${url}` : '';
  if (unreachable) return modelError('network', `Could not connect${at}: ${unreachable[0]} (${code}). ${unreachable[1]}`, false);
  const why = code ?? message ?? err?.message;
  if (name === 'SyntaxError') return modelError('network', `The response stream was garbled or cut mid-event (${why}).`, true);
  return modelError('network', `The connection${at} failed${why ? ` (${why})` : ''}.`, true);
}

/** Connection failures that another attempt a second later does not fix. */
const UNREACHABLE: Record<string, [why: string, advice: string]> = {
  ECONNREFUSED: ['the connection was refused', 'Is the model server running, on that port?'],
  ENOTFOUND: ['the host name does not resolve', 'Is the host name in the URL right?'],
  EHOSTUNREACH: ['the host cannot be reached', 'Is the address in the URL right?'],
  ENETUNREACH: ['the network cannot be reached', 'Is this machine online?'],
};

/** The innermost error's system code and message (at most a few causes deep). */
function rootCause(e: unknown): { code: string | undefined; message: string | undefined } {
  let code: string | undefined;
  let message: string | undefined;
  let at = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined;
  for (let depth = 0; at && typeof at === 'object' && depth < 6; depth++) {
    if (typeof at.code === 'string') code = at.code;
    if (typeof at.message === 'string' && at.message) message = at.message;
    // A refused "localhost" is tried on ::1 and 127.0.0.1: an AggregateError holds both.
    const inner = Array.isArray(at.errors) ? at.errors[0] : undefined;
    at = (at.cause ?? inner) as typeof at;
  }
  return { code, message };
}
