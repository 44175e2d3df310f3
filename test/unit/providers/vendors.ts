// The two real providers side by side, each with the wire facts a test needs: its stream
// format, how it says "error" mid-stream, and its HTTP error bodies. Shared behaviours are
// tested once per vendor through this table.
import type { ModelEvent, ModelProvider, ModelRequest } from '../../../src/kernel/index.js';
import { createAnthropicProvider } from '../../../src/providers/anthropic.js';
import { createOpenAIProvider } from '../../../src/providers/openai.js';
import type { RetryOptions } from '../../../src/providers/retry.js';
import { anthropicErrorBody, anthropicErrorEvent, anthropicEvents, sse } from '../../support/anthropic-wire.js';
import type { ModelServer, Reply } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { dataLines, openaiChunks, openaiErrorBody } from '../../support/openai-wire.js';

type ErrorCase = 'rate_limit' | 'quota' | 'overloaded' | 'auth' | 'context' | 'server';

export interface Vendor {
  name: 'anthropic' | 'openai';
  keyEnvVar: string;
  provider(server: ModelServer, opts?: { retry?: RetryOptions; apiKey?: string; model?: string }): ModelProvider;
  /** The whole stream of a turn. */
  stream(turn: WireTurn): string;
  /** The stream up to its first text delta, then the API's mid-stream error event. */
  streamThenError(turn: WireTurn): string;
  /** The stream without its stop marker (message_stop / finish_reason), ended cleanly. */
  truncated(turn: WireTurn): string;
  errorReply(c: ErrorCase, headers?: Record<string, string>): Reply;
}

/** Retries in milliseconds, not seconds, so tests stay fast. */
export const FAST_RETRY: RetryOptions = { baseDelayMs: 2, maxDelayMs: 10, maxAttempts: 3 };

const anthropicErrors: Record<ErrorCase, [number, string, string]> = {
  rate_limit: [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
  quota: [429, 'rate_limit_error', 'You have reached your monthly usage quota. Check your plan and billing details.'],
  overloaded: [529, 'overloaded_error', 'Overloaded'],
  auth: [401, 'authentication_error', 'invalid x-api-key'],
  context: [400, 'invalid_request_error', 'prompt is too long: 212345 tokens > 200000 maximum'],
  server: [500, 'api_error', 'Internal server error'],
};

const openaiErrors: Record<ErrorCase, [number, string, string, string | null]> = {
  rate_limit: [429, 'requests', 'Rate limit reached for gpt-4o on requests per min (RPM): Limit 500.', 'rate_limit_exceeded'],
  quota: [429, 'insufficient_quota', 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota'],
  overloaded: [503, 'server_error', 'The server is overloaded or not ready yet.', null],
  auth: [401, 'invalid_request_error', 'Incorrect API key provided: sk-test.', 'invalid_api_key'],
  context: [
    400,
    'invalid_request_error',
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130123 tokens.",
    'context_length_exceeded',
  ],
  server: [500, 'server_error', 'The server had an error while processing your request.', null],
};

export const anthropic: Vendor = {
  name: 'anthropic',
  keyEnvVar: 'ANTHROPIC_API_KEY',
  provider: (server, opts = {}) =>
    createAnthropicProvider({
      baseURL: server.anthropicBaseURL,
      apiKey: opts.apiKey ?? 'sk-ant-test',
      model: opts.model ?? 'claude-haiku-4-5',
      retry: opts.retry ?? FAST_RETRY,
    }),
  stream: (turn) => sse(anthropicEvents(turn)),
  streamThenError: (turn) => {
    const events = anthropicEvents(turn);
    const firstText = events.findIndex((e) => e.event === 'content_block_delta');
    return sse([...events.slice(0, firstText + 1), anthropicErrorEvent()]);
  },
  truncated: (turn) => sse(anthropicEvents(turn).filter((e) => e.event !== 'message_stop')),
  errorReply: (c, headers) => {
    const [status, type, message] = anthropicErrors[c];
    return { type: 'json', status, body: anthropicErrorBody(type, message), headers };
  },
};

export const openai: Vendor = {
  name: 'openai',
  keyEnvVar: 'OPENAI_API_KEY',
  provider: (server, opts = {}) =>
    createOpenAIProvider({
      baseURL: server.openaiBaseURL,
      apiKey: opts.apiKey ?? 'sk-test',
      model: opts.model ?? 'gpt-4o',
      retry: opts.retry ?? FAST_RETRY,
    }),
  stream: (turn) => dataLines(openaiChunks(turn)),
  // Chunk 0 carries the role, chunk 1 the first text.
  streamThenError: (turn) =>
    dataLines(
      [...openaiChunks(turn).slice(0, 2), openaiErrorBody('The server had an error while processing your request.', 'server_error')],
      false,
    ),
  truncated: (turn) => dataLines(openaiChunks(turn, { noUsage: true }).slice(0, -1), false),
  errorReply: (c, headers) => {
    const [status, type, message, code] = openaiErrors[c];
    return { type: 'json', status, body: openaiErrorBody(message, type, code), headers };
  },
};

export const VENDORS: Vendor[] = [anthropic, openai];

export const READ_TOOL = {
  name: 'read_note',
  description: 'Reads a note.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  },
};

export function request(text = 'hello', extra: Partial<ModelRequest> = {}): ModelRequest {
  return { system: 'You are a test.', messages: [{ role: 'user', text }], tools: [READ_TOOL], ...extra };
}

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

export const run = (p: ModelProvider, req: ModelRequest = request()) => collect(p.stream(req, new AbortController().signal));

export const textOf = (events: ModelEvent[]) => events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');

export const intentsOf = (events: ModelEvent[]) =>
  events.filter((e): e is Extract<ModelEvent, { type: 'tool_intent' }> => e.type === 'tool_intent');

export const typesOf = (events: ModelEvent[]) => events.map((e) => e.type);

/** Event types with repeats in a row collapsed: what a stream says whatever its network reads merged. */
export const kindsOf = (events: ModelEvent[]) => typesOf(events).filter((t, i, all) => t !== all[i - 1]);

/** The byte offsets just after each server-sent event of a body: serve it one event per read. */
export function eventBoundaries(body: string): number[] {
  const bytes = Buffer.from(body);
  const out: number[] = [];
  for (let i = bytes.indexOf('\n\n'); i !== -1; i = bytes.indexOf('\n\n', i + 2)) out.push(i + 2);
  return out;
}

/** Text since the last `retry` event: what the kernel keeps of the turn. */
export const textAfterLastRetry = (events: ModelEvent[]) => {
  const last = events.map((e) => e.type).lastIndexOf('retry');
  return textOf(events.slice(last + 1));
};
