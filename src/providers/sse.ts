// Server-sent events from a response body, in one pass, handed out a network read at a
// time: every event that one read completed, as one batch. The adapters translate a batch
// at once and merge its adjacent text deltas, so a burst (a fast local server, a backlog
// after a stall) costs the kernel one event per read, not one per token.
// Used for both vendors' streams (the SDKs still make the request): the OpenAI SDK's own
// decoder copies the rest of its buffer for every event it takes out, so a burst of small
// events in one read costs O(events × read size) — measured by bench/providers.ts as a
// 1 MiB reply in 1-byte deltas taking ~25× longer than 64 KiB. Here each byte is decoded
// once and each line scanned once.

import { TurnFailure, modelError } from './errors.js';

export interface SseMessage {
  event: string | undefined;
  data: string;
}

/** The decoder's work, counted for tests: characters it searched for line ends, and characters it joined. */
export interface SseWork {
  chars: number;
}

/**
 * The events completed by each read, in order; reads that complete none yield nothing.
 * Lines end in LF or CRLF (every server we speak to); a lone CR is not a line end here.
 */
export async function* sseBatches(body: ReadableStream<Uint8Array>, work?: SseWork): AsyncGenerator<SseMessage[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  /** Pieces of a line that has not ended yet: joined once, when it does. */
  let partial: string[] = [];
  let event: string | undefined;
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (work) work.chars += text.length;
      const batch: SseMessage[] = [];
      // Only the new text is searched: a long line arriving in pieces is never rescanned.
      let start = 0;
      let end: number;
      while ((end = text.indexOf('\n', start)) !== -1) {
        let line = text.slice(start, end);
        start = end + 1;
        if (partial.length > 0) {
          partial.push(line);
          line = partial.join('');
          partial = [];
          if (work) work.chars += line.length;
        }
        if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
        if (line === '') {
          if (data.length > 0) batch.push({ event, data: data.length === 1 ? data[0]! : data.join('\n') });
          event = undefined;
          data = [];
        } else if (line.charCodeAt(0) !== 58 /* ':' a comment */) {
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const fieldValue = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
          if (field === 'data') data.push(fieldValue);
          else if (field === 'event') event = fieldValue;
        }
      }
      if (start < text.length) partial.push(start === 0 ? text : text.slice(start));
      if (batch.length > 0) yield batch;
      // An event is only dispatched by its blank line: a stream cut mid-event yields nothing more.
      if (done) return;
    }
  } finally {
    // Stopped early (the turn is over, or the consumer left): close the connection.
    reader.cancel().catch(() => undefined);
  }
}

/**
 * A streaming response's events, batched by read; `sender` names who sent an empty body. A server
 * that answered with a whole JSON body instead of a stream (some proxies and local servers do)
 * has its answer read as one batch through `fromJson`, which turns it into the events the stream
 * would have carried, or throws a TurnFailure that is not retried: the request was answered (and
 * billed) once, and sending it again would only bill it again.
 */
export function responseBatches(
  response: Response,
  sender: string,
  fromJson: (body: unknown) => SseMessage[],
): AsyncIterable<SseMessage[]> {
  if (!response.body) throw new TurnFailure(modelError('network', `${sender} sent an empty response.`, true));
  if (/\bjson\b/i.test(response.headers.get('content-type') ?? '')) return jsonBatch(response, sender, fromJson);
  return sseBatches(response.body);
}

async function* jsonBatch(response: Response, sender: string, fromJson: (body: unknown) => SseMessage[]): AsyncGenerator<SseMessage[]> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TurnFailure(
      modelError('unknown', `${sender} answered with JSON that does not parse instead of a stream; the request was not sent again.`, false),
    );
  }
  yield fromJson(body);
}
