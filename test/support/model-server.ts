// The model stand-in: a local HTTP server (127.0.0.1, random port) that the real SDKs reach
// through their `baseURL`. It records every request and answers each with a scripted reply,
// written as each API's real streaming wire format — optionally in small pieces, with pauses,
// cut off mid-stream, or stalled. Unit tests, the benchmark and the end-to-end tests share it.
//
//   const server = await startModelServer(conversation([
//     { text: ['Let me look.'], toolCalls: [{ name: 'read_file', input: { path: 'a.ts' } }] },
//     (req) => ({ text: [`Saw ${req.body.messages.length} messages.`] }),
//   ]));
//   createAnthropicProvider({ baseURL: server.anthropicBaseURL, model: 'claude-sonnet-4-5' });
//   createOpenAIProvider({ baseURL: server.openaiBaseURL, model: 'gpt-4o' });
//
// Claude on Bedrock (POST /model/ID/invoke-with-response-stream) is answered in Amazon's
// event-stream framing (aws-event-stream.ts), on Vertex (…/models/M:streamRawPredict) in
// Anthropic's server-sent events.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicSse } from './anthropic-wire.js';
import { bedrockBody, EVENT_STREAM_TYPE } from './aws-event-stream.js';
import type { WireTurn } from './model-turn.js';
import { openaiSse } from './openai-wire.js';
import { responsesSse } from './responses-wire.js';

type Api = 'anthropic' | 'openai' | 'responses' | 'bedrock' | 'vertex' | 'unknown';

export interface RecordedRequest {
  api: Api;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: any;
  /** Resolves when the connection of this request closes (finished, cut, or given up by the client). */
  closed: Promise<void>;
}

export type Reply =
  | {
      type: 'stream';
      body: string | Uint8Array;
      status?: number;
      headers?: Record<string, string>;
      /** Write the body in pieces: a piece size in bytes, or the byte offsets to cut at. */
      chunks?: number | number[];
      /** Milliseconds to wait after each piece, so each arrives as its own read. */
      pauseMs?: number;
      /** Destroy the connection after this many bytes of body (a reset mid-stream). */
      cutAt?: number;
      /** After the body, keep the connection open and silent (a stalled stream). */
      stall?: boolean;
    }
  | { type: 'json'; status: number; body: unknown; headers?: Record<string, string> };

export type Responder = (req: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface ModelServer {
  url: string;
  /** For `new Anthropic({ baseURL })`: the SDK adds `/v1/messages`. */
  anthropicBaseURL: string;
  /** For `new OpenAI({ baseURL })`: the SDK adds `/chat/completions` (or `/responses`). */
  openaiBaseURL: string;
  /** For `new AnthropicVertex({ baseURL })`, which stands for `https://REGION-aiplatform.googleapis.com/v1`. */
  vertexBaseURL: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Answers request n with `replies[n]`, or asks `respond` for each one. */
export async function startModelServer(respond: Responder | Reply[]): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const responder: Responder = Array.isArray(respond) ? (_req, i) => respond[i] ?? noMoreReplies(i) : respond;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? '/';
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const recorded: RecordedRequest = {
      api: apiOf(path),
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body: parseJson(Buffer.concat(chunks)),
      closed,
    };
    const index = requests.push(recorded) - 1;
    try {
      await send(res, await responder(recorded, index));
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: `stand-in failed: ${String(e)}` } }));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    vertexBaseURL: `${url}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * One vendor-neutral script answering both APIs: each turn is a WireTurn (streamed in the
 * asking API's format), a ready Reply, or a function of the request that gives either.
 */
export type ConversationStep = WireTurn | Reply | ((req: RecordedRequest, index: number) => WireTurn | Reply);

export function conversation(steps: ConversationStep[] | ((req: RecordedRequest, index: number) => WireTurn | Reply)): Responder {
  return (req, index) => {
    const step = typeof steps === 'function' ? steps : steps[index];
    if (step === undefined) return noMoreReplies(index);
    const turn = typeof step === 'function' ? step(req, index) : step;
    if (isReply(turn)) return turn;
    if (req.api === 'bedrock')
      return { type: 'stream', body: bedrockBody(anthropicSse(turn)).body, headers: { 'content-type': EVENT_STREAM_TYPE } };
    const body = req.api === 'openai' ? openaiSse(turn) : req.api === 'responses' ? responsesSse(turn) : anthropicSse(turn);
    return { type: 'stream', body };
  };
}

function isReply(x: WireTurn | Reply): x is Reply {
  return 'type' in x && (x.type === 'stream' || x.type === 'json');
}

async function send(res: ServerResponse, reply: Reply): Promise<void> {
  if (reply.type === 'json') {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body));
    return;
  }
  res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  res.flushHeaders();
  const bytes = typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.from(reply.body);
  const body = reply.cutAt === undefined ? bytes : bytes.subarray(0, reply.cutAt);
  for (const piece of pieces(body, reply.chunks)) {
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(piece, () => resolve()));
    if (reply.pauseMs !== undefined) await new Promise((r) => setTimeout(r, reply.pauseMs));
  }
  if (reply.cutAt !== undefined) res.socket?.destroy();
  else if (!reply.stall) res.end();
}

function pieces(body: Buffer, chunks: number | number[] | undefined): Buffer[] {
  if (chunks === undefined) return body.length > 0 ? [body] : [];
  const cuts = typeof chunks === 'number' ? range(chunks, body.length, chunks) : chunks.filter((c) => c > 0 && c < body.length);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of [...cuts, body.length]) {
    if (c > from) out.push(body.subarray(from, c));
    from = Math.max(from, c);
  }
  return out;
}

function range(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i += step) out.push(i);
  return out;
}

function apiOf(path: string): Api {
  if (/\/model\/[^/]+\/invoke(-with-response-stream)?$/.test(path)) return 'bedrock';
  if (/\/publishers\/anthropic\/models\/[^/]+:(stream)?rawPredict$/i.test(path)) return 'vertex';
  if (path.includes('/messages')) return 'anthropic';
  if (path.includes('/chat/completions')) return 'openai';
  if (path.includes('/responses')) return 'responses';
  return 'unknown';
}

function parseJson(buf: Buffer): any {
  try {
    return buf.length ? JSON.parse(buf.toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

function noMoreReplies(index: number): Reply {
  return {
    type: 'json',
    status: 500,
    body: { type: 'error', error: { type: 'api_error', message: `the stand-in has no reply for request ${index + 1}` } },
  };
}
