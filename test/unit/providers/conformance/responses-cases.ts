// OpenAI Responses API streams, written here from the openai SDK's types (ResponseStreamEvent in
// resources/responses/responses.d.ts) and the API reference: text with cached-token usage,
// reasoning summaries in two parts with the encrypted reasoning item to send back, parallel
// function calls with arguments split inside strings and escapes, arguments sent only whole,
// a refusal, the output limit and the content filter (`response.incomplete`), `error` events and
// `response.failed` mid-stream, a second response spliced in, a cut before the terminal event, and a whole `response` object
// where a stream was asked for.
import { responseObject, responsesBody, responsesUsage } from '../../../support/responses-wire.js';
import type { StreamCase } from './cases.js';

const ID = 'resp_68c1f0a2b3d4e5f60718293a4b5c6d7e';
const MODEL = 'gpt-5-codex';
const ENCRYPTED = 'gAAAAABoxT3v8kN1-Qz_9Xw4mVb2R7yL0aP5sD3fG6hJ8kL1zX4cV7bN0mQ2wE5rT8yU1iO4pA==';

const created = () => ({ type: 'response.created', response: responseObject(ID, MODEL) });
const completed = (usage: Record<string, unknown>, fields: Record<string, unknown> = {}) => ({
  type: 'response.completed',
  response: responseObject(ID, MODEL, { status: 'completed', usage, ...fields }),
});
const added = (output_index: number, item: Record<string, unknown>) => ({ type: 'response.output_item.added', output_index, item });
const done = (output_index: number, item: Record<string, unknown>) => ({ type: 'response.output_item.done', output_index, item });
const text = (output_index: number, delta: string) => ({
  type: 'response.output_text.delta',
  item_id: 'msg_1',
  output_index,
  content_index: 0,
  delta,
  logprobs: [],
});
const summary = (output_index: number, summary_index: number, delta: string) => ({
  type: 'response.reasoning_summary_text.delta',
  item_id: 'rs_1',
  output_index,
  summary_index,
  delta,
});
const args = (output_index: number, item_id: string, delta: string) => ({
  type: 'response.function_call_arguments.delta',
  item_id,
  output_index,
  delta,
});
const argsDone = (output_index: number, item_id: string, name: string, whole: string) => ({
  type: 'response.function_call_arguments.done',
  item_id,
  output_index,
  name,
  arguments: whole,
});
const fc = (id: string, call_id: string, name: string, whole: string, status = 'completed') => ({
  id,
  type: 'function_call',
  status,
  call_id,
  name,
  arguments: whole,
});
const message = (content: string) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: content, annotations: [], logprobs: [] }],
});
const reasoningItem = (parts: string[], encrypted: string | null) => ({
  id: 'rs_1',
  type: 'reasoning',
  summary: parts.map((t) => ({ type: 'summary_text', text: t })),
  encrypted_content: encrypted,
});

const READ_ARGS = '{"path":"src\\\\a \\"b\\".ts"}';
const SEARCH_ARGS = '{"query":"caf\\u00e9"}';

export const RESPONSES_CASES: StreamCase[] = [
  {
    name: 'responses: text, then usage with cached tokens in response.completed',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      added(0, { ...message(''), status: 'in_progress', content: [] }),
      text(0, 'Hello'),
      text(0, ', world.'),
      done(0, message('Hello, world.')),
      completed(responsesUsage(1200, 1024, 48, 0)),
    ]),
    expect: { text: 'Hello, world.', reasoning: null, usage: { inputTokens: 176, cacheReadTokens: 1024, outputTokens: 48 } },
  },
  {
    name: 'responses: reasoning summaries in two parts, the encrypted item kept to send back, reasoning tokens counted',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      added(0, reasoningItem([], null)),
      {
        type: 'response.reasoning_summary_part.added',
        item_id: 'rs_1',
        output_index: 0,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      },
      summary(0, 0, '**Reading the file**\n\nThe user '),
      summary(0, 0, 'wants a.ts.'),
      summary(0, 1, 'Then answer.'),
      done(0, reasoningItem(['**Reading the file**\n\nThe user wants a.ts.', 'Then answer.'], ENCRYPTED)),
      added(1, { ...message(''), content: [] }),
      text(1, 'Done.'),
      done(1, message('Done.')),
      completed(responsesUsage(300, 0, 500, 448)),
    ]),
    expect: {
      text: 'Done.',
      reasoningText: '**Reading the file**\n\nThe user wants a.ts.\n\nThen answer.',
      reasoning: {
        format: 'openai_responses',
        blocks: [
          { type: 'encrypted', data: ENCRYPTED, id: 'rs_1', summary: ['**Reading the file**\n\nThe user wants a.ts.', 'Then answer.'] },
        ],
      },
      usage: { inputTokens: 300, outputTokens: 500, cacheReadTokens: 0 },
    },
  },
  {
    name: 'responses: parallel function calls after reasoning, arguments split inside strings and escapes',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      added(0, reasoningItem([], null)),
      done(0, reasoningItem([], ENCRYPTED)),
      added(1, fc('fc_1', 'call_R1', 'read_file', '', 'in_progress')),
      args(1, 'fc_1', '{"path":"src\\'),
      args(1, 'fc_1', '\\a \\'),
      args(1, 'fc_1', '"b\\".ts"}'),
      argsDone(1, 'fc_1', 'read_file', READ_ARGS),
      done(1, fc('fc_1', 'call_R1', 'read_file', READ_ARGS)),
      added(2, fc('fc_2', 'call_S2', 'search', '', 'in_progress')),
      args(2, 'fc_2', '{"query":"caf\\u'),
      args(2, 'fc_2', '00e9"}'),
      argsDone(2, 'fc_2', 'search', SEARCH_ARGS),
      done(2, fc('fc_2', 'call_S2', 'search', SEARCH_ARGS)),
      completed(responsesUsage(900, 512, 120, 64)),
    ]),
    expect: {
      reasoning: { format: 'openai_responses', blocks: [{ type: 'encrypted', data: ENCRYPTED, id: 'rs_1', summary: [] }] },
      intents: [
        { providerRef: 'call_R1', tool: 'read_file', input: { path: 'src\\a "b".ts' } },
        { providerRef: 'call_S2', tool: 'search', input: { query: 'café' } },
      ],
      usage: { inputTokens: 388, cacheReadTokens: 512, outputTokens: 120 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'responses: a call whose arguments come only whole, in .done and the item',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      added(0, fc('fc_1', 'call_W', 'read_file', '', 'in_progress')),
      argsDone(0, 'fc_1', 'read_file', '{"path":"a.ts"}'),
      done(0, fc('fc_1', 'call_W', 'read_file', '{"path":"a.ts"}')),
      completed(responsesUsage(10, 0, 5, 0)),
    ]),
    expect: { intents: [{ providerRef: 'call_W', tool: 'read_file', input: { path: 'a.ts' } }], stop: 'tool_intent' },
  },
  {
    name: 'responses: a refusal is text the user reads',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      added(0, { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] }),
      { type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'I can’t help ' },
      { type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'with that.' },
      completed(responsesUsage(20, 0, 6, 0)),
    ]),
    expect: { text: 'I can’t help with that.', stop: 'stop' },
  },
  {
    name: 'responses: the output limit mid-call (response.incomplete) ends the turn, the call told it was cut',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      added(0, fc('fc_1', 'call_L', 'write_file', '', 'in_progress')),
      args(0, 'fc_1', '{"path":"a.ts","content":"very lo'),
      {
        type: 'response.incomplete',
        response: responseObject(ID, MODEL, {
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
          usage: responsesUsage(50, 0, 4096, 1024),
        }),
      },
    ]),
    expect: {
      intents: [{ providerRef: 'call_L', tool: 'write_file', inputError: /output token limit/ }],
      usage: { outputTokens: 4096 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'responses: the content filter (response.incomplete) tells the user why the reply stopped',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      text(0, 'Partial'),
      {
        type: 'response.incomplete',
        response: responseObject(ID, MODEL, { status: 'incomplete', incomplete_details: { reason: 'content_filter' } }),
      },
    ]),
    expect: {
      text: 'Partial\n\nThe reply was stopped by the server’s content filter (response.incomplete: content_filter).',
      stop: 'refusal',
    },
  },
  {
    name: 'responses: an error event mid-stream with a rate-limit code is retried',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      text(0, 'Hi'),
      { type: 'error', code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5-codex.', param: null },
    ]),
    expect: { error: { kind: 'rate_limited', retryable: true }, requests: 3 },
  },
  {
    name: 'responses: response.failed with an invalid prompt is not retried',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      {
        type: 'response.failed',
        response: responseObject(ID, MODEL, { status: 'failed', error: { code: 'invalid_prompt', message: 'Invalid prompt: flagged.' } }),
      },
    ]),
    expect: { error: { kind: 'bad_request', retryable: false, message: /Invalid prompt/ }, requests: 1 },
  },
  {
    name: 'responses: response.failed with a server error is retried',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      {
        type: 'response.failed',
        response: responseObject(ID, MODEL, { status: 'failed', error: { code: 'server_error', message: 'The server had an error.' } }),
      },
    ]),
    expect: { error: { kind: 'unknown', retryable: true }, requests: 3 },
  },
  {
    name: 'responses: a second response spliced into the stream is a protocol error, not retried',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      text(0, 'One '),
      { type: 'response.created', response: responseObject('resp_OTHER', MODEL) },
      text(0, 'two'),
      completed(responsesUsage(10, 0, 2, 0)),
    ]),
    expect: { error: { kind: 'unknown', retryable: false, message: /second response/ }, requests: 1 },
  },
  {
    name: 'responses: an error event carrying its error as an object is classified by its code',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      { type: 'error', error: { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' } },
    ]),
    expect: { error: { kind: 'context_overflow', retryable: false }, requests: 1 },
  },
  {
    name: 'responses: a stream cut before response.completed is retried, never taken for a turn',
    api: 'responses',
    model: MODEL,
    body: responsesBody([
      created(),
      added(0, fc('fc_1', 'call_C', 'read_file', '', 'in_progress')),
      args(0, 'fc_1', '{"path":"a"}'),
      done(0, fc('fc_1', 'call_C', 'read_file', '{"path":"a"}')),
    ]),
    expect: { error: { kind: 'network', retryable: true }, requests: 3 },
  },
  {
    name: 'responses: a whole response object where a stream was asked for is read once',
    api: 'responses',
    model: MODEL,
    json: true,
    body: JSON.stringify(
      responseObject(ID, MODEL, {
        status: 'completed',
        output: [reasoningItem(['Look first.'], ENCRYPTED), message('Reading.'), fc('fc_1', 'call_J', 'read_file', '{"path":"a.ts"}')],
        usage: responsesUsage(30, 0, 10, 4),
      }),
    ),
    expect: {
      text: 'Reading.',
      reasoning: { format: 'openai_responses', blocks: [{ type: 'encrypted', data: ENCRYPTED, id: 'rs_1', summary: ['Look first.'] }] },
      intents: [{ providerRef: 'call_J', tool: 'read_file', input: { path: 'a.ts' } }],
      usage: { inputTokens: 30, outputTokens: 10 },
      stop: 'tool_intent',
    },
  },
];
