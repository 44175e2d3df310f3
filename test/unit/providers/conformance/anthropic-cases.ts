// Anthropic Messages streams, written from the API reference's streaming page (message_start,
// content_block_start/delta/stop, message_delta with cumulative usage, message_stop, ping,
// error) and the SDK's event types: text, extended thinking with signatures and redacted blocks,
// parallel and split tool calls, a tool input sent whole in its start block, server tools with
// citations, a refusal with its stop_details, errors mid-stream, a splice, a cut, and a whole
// JSON message where a stream was asked for.
import { anthropicBody, type StreamCase } from './cases.js';

const MODEL = 'claude-haiku-4-5';

const start = (usage: Record<string, number> = {}) => ({
  type: 'message_start',
  message: {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, ...usage },
  },
});
const ping = { type: 'ping' };
const textStart = (index: number) => ({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
const text = (index: number, t: string) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } });
const stop = (index: number) => ({ type: 'content_block_stop', index });
const toolStart = (index: number, id: string, name: string, input: unknown = {}) => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name, input },
});
const json = (index: number, partial: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: partial },
});
const end = (stopReason: string, usage: Record<string, number> = { output_tokens: 15 }, extra: Record<string, unknown> = {}) => ({
  type: 'message_delta',
  delta: { stop_reason: stopReason, stop_sequence: null, ...extra },
  usage,
});
const messageStop = { type: 'message_stop' };

const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds7vX8d6GQ6X9lGBnUcm1LHhGEk0NbAGcqrXT3';

export const ANTHROPIC_CASES: StreamCase[] = [
  {
    name: 'anthropic: text with pings, usage with cache reads and writes',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start({ input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30_000 }),
      ping,
      textStart(0),
      ping,
      text(0, 'Hello'),
      text(0, ', wörld 🦀!'),
      stop(0),
      end('end_turn', { output_tokens: 15 }),
      messageStop,
    ]),
    expect: { text: 'Hello, wörld 🦀!', usage: { inputTokens: 12, outputTokens: 15, cacheReadTokens: 30_000, cacheWriteTokens: 2048 } },
  },
  {
    name: 'anthropic: extended thinking with its signature, then a tool call split mid-string',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants the file. ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I will read it.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
      stop(0),
      textStart(1),
      text(1, 'Reading it.'),
      stop(1),
      toolStart(2, 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', 'read_file'),
      json(2, ''),
      json(2, '{"path": "src/ma'),
      json(2, 'in.ts"}'),
      stop(2),
      end('tool_use', { output_tokens: 89 }),
      messageStop,
    ]),
    expect: {
      text: 'Reading it.',
      reasoningText: 'The user wants the file. I will read it.',
      reasoning: {
        format: 'anthropic',
        blocks: [{ type: 'text', text: 'The user wants the file. I will read it.', signature: SIGNATURE }],
      },
      intents: [{ providerRef: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', tool: 'read_file', input: { path: 'src/main.ts' } }],
      stop: 'tool_intent',
    },
  },
  {
    name: 'anthropic: a redacted thinking block is kept, opaque, in its place',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
      },
      stop(0),
      { type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'More.' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: 'c2lnMg==' } },
      stop(1),
      textStart(2),
      text(2, 'Done.'),
      stop(2),
      end('end_turn'),
      messageStop,
    ]),
    expect: {
      text: 'Done.',
      reasoning: {
        format: 'anthropic',
        blocks: [
          { type: 'encrypted', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
          { type: 'text', text: 'More.', signature: 'c2lnMg==' },
        ],
      },
    },
  },
  {
    name: 'anthropic: two parallel tool calls, one without arguments',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      toolStart(0, 'toolu_A', 'read_file'),
      json(0, '{"path":'),
      json(0, '"a.ts"}'),
      stop(0),
      toolStart(1, 'toolu_B', 'list_files'),
      stop(1),
      end('tool_use'),
      messageStop,
    ]),
    expect: {
      text: '',
      reasoning: null,
      intents: [
        { providerRef: 'toolu_A', tool: 'read_file', input: { path: 'a.ts' } },
        { providerRef: 'toolu_B', tool: 'list_files', input: {} },
      ],
      stop: 'tool_intent',
    },
  },
  {
    name: 'anthropic: a tool input sent whole in content_block_start',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      toolStart(0, 'toolu_W', 'read_file', { path: 'README.md', lines: [1, 40] }),
      stop(0),
      end('tool_use'),
      messageStop,
    ]),
    expect: { intents: [{ providerRef: 'toolu_W', tool: 'read_file', input: { path: 'README.md', lines: [1, 40] } }], stop: 'tool_intent' },
  },
  {
    name: 'anthropic: a server tool (web search) and its result stay out of the turn; the cited text is kept once',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      textStart(0),
      text(0, 'Let me search. '),
      stop(0),
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB', name: 'web_search', input: {} },
      },
      json(1, '{"query": "node 24'),
      json(1, ' release date"}'),
      stop(1),
      {
        type: 'content_block_start',
        index: 2,
        content_block: {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB',
          content: [
            {
              type: 'web_search_result',
              title: 'Node.js 24',
              url: 'https://nodejs.org/en/blog/release/v24.0.0',
              encrypted_content: 'Ev0DCioIAxgCIiQ3',
              page_age: null,
            },
          ],
        },
      },
      stop(2),
      textStart(3),
      {
        type: 'content_block_delta',
        index: 3,
        delta: {
          type: 'citations_delta',
          citation: {
            type: 'web_search_result_location',
            cited_text: 'Node.js 24 is out',
            url: 'https://nodejs.org/en/blog/release/v24.0.0',
            title: 'Node.js 24',
            encrypted_index: 'Eo8BCioIAhgBIiQy',
          },
        },
      },
      text(3, 'Node 24 came out in May 2025.'),
      stop(3),
      end('end_turn', { output_tokens: 40 }, {}),
      messageStop,
    ]),
    expect: { text: 'Let me search. Node 24 came out in May 2025.', intents: [], reasoning: null },
  },
  {
    name: 'anthropic: a refusal shows its explanation and proposes nothing',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      toolStart(0, 'toolu_R', 'run_command'),
      json(0, '{"command": "'),
      end(
        'refusal',
        { output_tokens: 3 },
        {
          stop_details: { type: 'refusal', category: 'cyber', explanation: 'This request could enable malware development.' },
        },
      ),
      messageStop,
    ]),
    expect: {
      text: '\n\nThe model declined to answer (cyber): This request could enable malware development.',
      intents: [],
      stop: 'refusal',
    },
  },
  {
    name: 'anthropic: a refusal without a stated reason still says so',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([start(), end('refusal', { output_tokens: 0 }, { stop_details: null }), messageStop]),
    expect: { text: '\n\nThe model declined to answer, and gave no reason.', stop: 'refusal' },
  },
  {
    name: 'anthropic: the output limit in the middle of a tool input',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      toolStart(0, 'toolu_L', 'write_file'),
      json(0, '{"path":"a.ts","text":"line'),
      stop(0),
      end('max_tokens'),
      messageStop,
    ]),
    expect: { intents: [{ tool: 'write_file', inputError: /output token limit/ }], stop: 'tool_intent' },
  },
  {
    name: 'anthropic: overloaded mid-stream is retried, and given up on after the last attempt',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      textStart(0),
      text(0, 'Partial'),
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]),
    expect: { error: { kind: 'overloaded', retryable: true }, requests: 3 },
  },
  {
    name: 'anthropic: an invalid request mid-stream is not retried',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      { type: 'error', error: { type: 'invalid_request_error', message: 'messages.1: tool_use ids must be unique' } },
    ]),
    expect: { error: { kind: 'bad_request', retryable: false }, requests: 1 },
  },
  {
    name: 'anthropic: a second message_start spliced into the stream is a protocol error',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      textStart(0),
      text(0, 'One '),
      start(),
      textStart(0),
      text(0, 'two'),
      stop(0),
      end('end_turn'),
      messageStop,
    ]),
    expect: { error: { kind: 'unknown', retryable: false, message: /second message/ }, requests: 1 },
  },
  {
    name: 'anthropic: a stream cut before message_stop is retried, never taken for a turn',
    api: 'anthropic',
    model: MODEL,
    body: anthropicBody([
      start(),
      textStart(0),
      text(0, 'Cut here'),
      stop(0),
      toolStart(1, 'toolu_C', 'read_file'),
      json(1, '{"path":"a"}'),
      stop(1),
    ]),
    expect: { error: { kind: 'network', retryable: true }, requests: 3 },
  },
  {
    name: 'anthropic: a whole JSON message where a stream was asked for is read once',
    api: 'anthropic',
    model: MODEL,
    json: true,
    body: JSON.stringify({
      id: 'msg_01JSON',
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [
        { type: 'thinking', thinking: 'Read it.', signature: 'c2ln' },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_J', name: 'read_file', input: { path: 'a.ts' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 0 },
    }),
    expect: {
      text: 'Reading.',
      reasoning: { format: 'anthropic', blocks: [{ type: 'text', text: 'Read it.', signature: 'c2ln' }] },
      intents: [{ providerRef: 'toolu_J', tool: 'read_file', input: { path: 'a.ts' } }],
      usage: { inputTokens: 50, outputTokens: 20, cacheReadTokens: 10 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'anthropic: a JSON error body with status 200 is reported once, not re-sent',
    api: 'anthropic',
    model: MODEL,
    json: true,
    body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    expect: { error: { kind: 'overloaded', retryable: false }, requests: 1 },
  },
];
