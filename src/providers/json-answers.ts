// A whole JSON answer to a streaming request, as the events its stream would have carried: an
// Anthropic `message` becomes message_start, each block whole in its content_block_start, then
// message_delta and message_stop; a `chat.completion` becomes one chunk whose delta is the whole
// message, then `[DONE]`. The stream translators then read it like any stream. Anything else —
// an error body, or JSON that is no answer — is for the adapter's `refuse` to report, once.
import type { SseMessage } from './sse.js';

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

const event = (name: string, data: Json): SseMessage => ({ event: name, data: JSON.stringify({ type: name, ...data }) });

/** An Anthropic Messages `message` body as its stream's events; undefined when it is not one. */
export function anthropicMessageEvents(body: unknown): SseMessage[] | undefined {
  if (!isObject(body) || body.type !== 'message' || !Array.isArray(body.content)) return undefined;
  const { content, stop_reason, stop_details, usage, ...message } = body;
  const events = [event('message_start', { message: { ...message, content: [], stop_reason: null, usage } })];
  content.forEach((block, index) => {
    events.push(event('content_block_start', { index, content_block: block }));
    events.push(event('content_block_stop', { index }));
  });
  events.push(event('message_delta', { delta: { stop_reason, stop_details: stop_details ?? null }, usage }));
  events.push(event('message_stop', {}));
  return events;
}

/** A chat `completion` body as one chunk and `[DONE]`; undefined when it is not one. */
export function chatCompletionChunks(body: unknown): SseMessage[] | undefined {
  if (!isObject(body) || !Array.isArray(body.choices) || !body.choices.every(isObject)) return undefined;
  const choices = body.choices.map((choice) => {
    const message = isObject(choice.message) ? choice.message : {};
    // A stream's tool calls carry their index; a whole message's are in order.
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls.map((c, index) => (isObject(c) ? { index, ...c } : c)) : undefined;
    return {
      index: choice.index ?? 0,
      delta: { ...message, ...(calls ? { tool_calls: calls } : {}) },
      finish_reason: choice.finish_reason ?? 'stop',
    };
  });
  return [
    { event: undefined, data: JSON.stringify({ ...body, object: 'chat.completion.chunk', choices }) },
    { event: undefined, data: '[DONE]' },
  ];
}

/**
 * A Responses API `response` body as its stream's events: each output item's text (or refusal)
 * as one delta, each item whole in its `response.output_item.done`, then the terminal event its
 * status names. Undefined when it is not one.
 */
export function responseObjectEvents(body: unknown): SseMessage[] | undefined {
  if (!isObject(body) || body.object !== 'response' || !Array.isArray(body.output)) return undefined;
  const events: SseMessage[] = [];
  body.output.forEach((item, output_index) => {
    if (!isObject(item)) return;
    if (item.type === 'message' && Array.isArray(item.content))
      for (const part of item.content.filter(isObject)) {
        if (part.type === 'output_text') events.push(event('response.output_text.delta', { output_index, delta: part.text }));
        if (part.type === 'refusal') events.push(event('response.refusal.delta', { output_index, delta: part.refusal }));
      }
    events.push(event('response.output_item.done', { output_index, item }));
  });
  const terminal =
    body.status === 'incomplete' ? 'response.incomplete' : body.status === 'failed' ? 'response.failed' : 'response.completed';
  events.push(event(terminal, { response: body }));
  return events;
}
