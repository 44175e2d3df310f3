// The Anthropic Messages API's streaming wire format, as its API reference documents it:
// server-sent events `message_start`, `content_block_start` / `content_block_delta`
// (text_delta, input_json_delta, thinking_delta, signature_delta) / `content_block_stop`,
// `message_delta` (stop_reason, cumulative usage), `message_stop`, plus `ping` and `error`.
import { stopOf, toolFragments, usageOf, type WireTurn } from './model-turn.js';

export interface SseEvent {
  event: string;
  data: unknown;
}

export function sse(events: SseEvent[]): string {
  let out = '';
  for (const e of events) out += `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
  return out;
}

const STOP = { stop: 'end_turn', tool_use: 'tool_use', length: 'max_tokens', refusal: 'refusal' } as const;

let messages = 0;

/** Every event of one streamed message, in order. */
export function anthropicEvents(turn: WireTurn): SseEvent[] {
  const u = usageOf(turn);
  const events: SseEvent[] = [];
  const add = (event: string, data: Record<string, unknown>) => {
    events.push({ event, data: { type: event, ...data } });
    if (turn.pings && event === 'content_block_delta') events.push({ event: 'ping', data: { type: 'ping' } });
  };
  add('message_start', {
    message: {
      id: `msg_test_${++messages}`,
      type: 'message',
      role: 'assistant',
      model: turn.model ?? 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: u.input, cache_creation_input_tokens: u.cacheWrite, cache_read_input_tokens: u.cacheRead, output_tokens: 1 },
    },
  });
  events.push({ event: 'ping', data: { type: 'ping' } });
  let index = 0;
  if (turn.reasoning?.length) {
    add('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const t of turn.reasoning) add('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } });
    add('content_block_delta', { index, delta: { type: 'signature_delta', signature: `sig-${messages}` } });
    add('content_block_stop', { index: index++ });
  }
  if (turn.text?.length) {
    add('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const t of turn.text) add('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
    add('content_block_stop', { index: index++ });
  }
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    const id = call.id ?? `toolu_test_${messages}_${i}`;
    add('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
    for (const f of toolFragments(call, turn.fragmentChars))
      add('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: f } });
    add('content_block_stop', { index: index++ });
  }
  add('message_delta', {
    delta: { stop_reason: STOP[stopOf(turn)], stop_sequence: null },
    usage: {
      input_tokens: u.input,
      cache_creation_input_tokens: u.cacheWrite,
      cache_read_input_tokens: u.cacheRead,
      output_tokens: u.output,
    },
  });
  add('message_stop', {});
  return events;
}

export function anthropicSse(turn: WireTurn): string {
  return sse(anthropicEvents(turn));
}

/** The `error` event the API sends inside a 200 stream (e.g. when it becomes overloaded). */
export function anthropicErrorEvent(type = 'overloaded_error', message = 'Overloaded'): SseEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}

/** The JSON body of a non-200 response. */
export function anthropicErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message }, request_id: 'req_test' };
}
