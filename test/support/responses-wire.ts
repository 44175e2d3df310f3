// The OpenAI Responses API streaming wire format, as the openai SDK's types
// (resources/responses/responses.d.ts, ResponseStreamEvent) describe it: `event: TYPE` and
// `data: {…, "type": TYPE, "sequence_number": n}` per event — response.created, then per output
// item `response.output_item.added`, its deltas (`response.reasoning_summary_text.delta`,
// `response.output_text.delta`, `response.function_call_arguments.delta`) and
// `response.output_item.done` with the item whole, then `response.completed` carrying the
// response with its usage. No `[DONE]` line: the terminal event ends the stream.
import { stopOf, toolFragments, usageOf, type WireTurn } from './model-turn.js';

let responses = 0;

/** The events as the server writes them, numbered in order. */
export function responsesBody(events: Record<string, unknown>[]): string {
  return events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');
}

/** A `response` object: what response.created / .completed / .incomplete / .failed carry. */
export function responseObject(id: string, model: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: 1_760_000_000,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    model,
    output: [],
    parallel_tool_calls: true,
    store: false,
    usage: null,
    ...fields,
  };
}

export function responsesUsage(input: number, cached: number, output: number, reasoning: number): Record<string, unknown> {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

/**
 * The events of one scripted turn: its reasoning as one reasoning item (summary deltas and an
 * encrypted content made from the text, so a test can tell it came back), its text as one
 * message, each tool call as a function_call item with its arguments in fragments.
 */
function responsesEvents(turn: WireTurn): Record<string, unknown>[] {
  const id = `resp_test_${++responses}`;
  const model = turn.model ?? 'gpt-5-codex';
  const out: Record<string, unknown>[] = [{ type: 'response.created', response: responseObject(id, model) }];
  const items: Record<string, unknown>[] = [];
  const add = (item: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    const output_index = items.length;
    const item_id = item.id;
    out.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress' } });
    for (const d of deltas) out.push({ ...d, item_id, output_index });
    const done = { ...item, status: 'completed' };
    // The same object: the fields filled in below are in the done event and the terminal response alike.
    out.push({ type: 'response.output_item.done', output_index, item: done });
    items.push(done);
  };
  if (turn.reasoning?.length) {
    const text = turn.reasoning.join('');
    const item = { id: `rs_${id}`, type: 'reasoning', summary: [] };
    add(item, [...turn.reasoning.map((delta) => ({ type: 'response.reasoning_summary_text.delta', summary_index: 0, delta }))]);
    Object.assign(items.at(-1)!, {
      summary: [{ type: 'summary_text', text }],
      encrypted_content: `enc:${Buffer.from(text).toString('base64')}`,
    });
  }
  if (turn.text?.length) {
    const text = turn.text.join('');
    const message = { id: `msg_${id}`, type: 'message', role: 'assistant', content: [] as unknown[] };
    add(
      message,
      turn.text.map((delta) => ({ type: 'response.output_text.delta', content_index: 0, delta, logprobs: [] })),
    );
    Object.assign(items.at(-1)!, { content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] });
  }
  for (const [n, call] of (turn.toolCalls ?? []).entries()) {
    const args = toolFragments(call, turn.fragmentChars);
    const item = { id: `fc_${id}_${n}`, type: 'function_call', call_id: call.id ?? `call_${id}_${n}`, name: call.name, arguments: '' };
    add(item, [
      ...args.map((delta) => ({ type: 'response.function_call_arguments.delta', delta })),
      { type: 'response.function_call_arguments.done', arguments: args.join(''), name: call.name },
    ]);
    Object.assign(items.at(-1)!, { arguments: args.join('') });
  }
  const u = usageOf(turn);
  const length = stopOf(turn) === 'length';
  out.push({
    type: length ? 'response.incomplete' : 'response.completed',
    response: responseObject(id, model, {
      status: length ? 'incomplete' : 'completed',
      incomplete_details: length ? { reason: 'max_output_tokens' } : null,
      output: items,
      usage: responsesUsage(u.input + u.cacheRead, u.cacheRead, u.output, 0),
    }),
  });
  return out;
}

export function responsesSse(turn: WireTurn): string {
  return responsesBody(responsesEvents(turn));
}
