// Claude on Bedrock and Vertex: the Anthropic cases as each cloud carries them, and the failures
// only a cloud sends. Bedrock wraps every Anthropic event in an event-stream `chunk` message
// (test/support/aws-event-stream.ts) and reports throttling and bad requests mid-stream as
// exception messages; Vertex's streamRawPredict sends Anthropic's server-sent events as they are.
// Each is served whole, as a burst (one write per message) and in 1–24-byte pieces.
import { bedrockBody, bedrockException, EVENT_STREAM_TYPE } from '../../../support/aws-event-stream.js';
import type { Reply } from '../../../support/model-server.js';
import { ANTHROPIC_CASES } from './anthropic-cases.js';
import { anthropicBody, randomCuts, replyFor, seedOf, type Expected, type StreamCase, type WriteMode } from './cases.js';

export interface BedrockCase {
  name: string;
  model: string;
  /** The Anthropic events the chunks carry (SSE text), or a whole JSON answer. */
  sse: string;
  json?: boolean;
  /** Messages after the chunks (an exception). */
  after?: Buffer[];
  /** Cut the body this many bytes before its end (mid-message). */
  cutBytes?: number;
  expect: Expected;
}

const BEDROCK_MODEL = 'us.anthropic.claude-haiku-4-5-20251001-v1:0';
const START = {
  type: 'message_start',
  message: {
    id: 'msg_bdrk_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5-20251001',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 9, output_tokens: 1 },
  },
};
const PARTIAL = anthropicBody([
  START,
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Half an ans' } },
]);

/** Every Anthropic case, its events in Bedrock's chunks; then Bedrock's own failures. */
export const BEDROCK_CASES: BedrockCase[] = [
  ...ANTHROPIC_CASES.map((c) => ({
    name: c.name.replace(/^anthropic:/, 'bedrock:'),
    model: BEDROCK_MODEL,
    sse: c.body,
    ...(c.json ? { json: true } : {}),
    expect: c.expect,
  })),
  {
    name: 'bedrock: a throttlingException mid-stream is retried as a rate limit',
    model: BEDROCK_MODEL,
    sse: PARTIAL,
    after: [bedrockException('throttlingException', 'Too many tokens, please wait before trying again.')],
    expect: { error: { kind: 'rate_limited', retryable: true, message: /Too many tokens/ }, requests: 3 },
  },
  {
    name: 'bedrock: a validationException mid-stream is not retried',
    model: BEDROCK_MODEL,
    sse: PARTIAL,
    after: [bedrockException('validationException', 'messages: text content blocks must be non-empty')],
    expect: { error: { kind: 'bad_request', retryable: false, message: /non-empty/ }, requests: 1 },
  },
  {
    name: 'bedrock: a modelStreamErrorException is the server’s failure, retried',
    model: BEDROCK_MODEL,
    sse: PARTIAL,
    after: [bedrockException('modelStreamErrorException', 'The model stream failed.')],
    expect: { error: { retryable: true, message: /model stream failed/ }, requests: 3 },
  },
  {
    name: 'bedrock: a body cut inside a message is retried, never taken for a turn',
    model: BEDROCK_MODEL,
    sse: ANTHROPIC_CASES[0]!.body,
    cutBytes: 7,
    expect: { error: { retryable: true }, requests: 3 },
  },
];

/** The reply serving a Bedrock case in one write mode. */
export function bedrockReply(c: BedrockCase, mode: WriteMode): Reply {
  if (c.json) return replyFor({ name: c.name, api: 'anthropic', model: c.model, body: c.sse, json: true, expect: c.expect }, mode);
  const whole = bedrockBody(c.sse, c.after);
  const length = whole.body.length - (c.cutBytes ?? 0);
  const body = whole.body.subarray(0, length);
  const headers = { 'content-type': EVENT_STREAM_TYPE };
  if (mode === 'whole') return { type: 'stream', body, headers };
  if (mode === 'burst') return { type: 'stream', body, headers, chunks: whole.ends.filter((e) => e < length) };
  return { type: 'stream', body, headers, chunks: randomCuts(length, seedOf(c.name)), pauseMs: 0 };
}

/** Every Anthropic case as Vertex sends it: the same events, at Vertex's address. */
export const VERTEX_CASES: StreamCase[] = ANTHROPIC_CASES.map((c) => ({
  ...c,
  name: c.name.replace(/^anthropic:/, 'vertex:'),
  model: 'claude-haiku-4-5@20251001',
}));
