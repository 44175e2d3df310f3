// Chat-completions streams that turn out not to be a plain turn, as the servers send them:
// errors mid-stream with numeric (OpenRouter) and string (OpenAI) codes, a second completion
// spliced in, text after the finish, a cut before it, and a whole JSON completion (or error
// body) where a stream was asked for.
import { chatBody, type StreamCase } from './cases.js';
import { call, chunker, openai } from './chat-cases.js';

export const CHAT_FAILURE_CASES: StreamCase[] = [
  {
    name: 'openrouter: an error mid-stream with a numeric code 400 is not retried',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody(
      [
        openai({ role: 'assistant', content: '' }),
        { error: { code: 400, message: 'Provider returned error', metadata: { provider_name: 'Fireworks' } } },
      ],
      false,
    ),
    expect: { error: { kind: 'bad_request', retryable: false }, requests: 1 },
  },
  {
    name: 'openrouter: an error mid-stream with a numeric code 502 is retried',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([openai({ role: 'assistant', content: 'Hi' }), { error: { code: 502, message: 'Upstream error' } }], false),
    expect: { error: { kind: 'unknown', retryable: true }, requests: 3 },
  },
  {
    name: 'openai: an error mid-stream with a string code is classified by it',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody(
      [
        openai({ role: 'assistant', content: '' }),
        {
          error: {
            message: "This model's maximum context length is 128000 tokens.",
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        },
      ],
      false,
    ),
    expect: { error: { kind: 'context_overflow', retryable: false }, requests: 1 },
  },
  {
    name: 'openai: a second completion spliced into the stream is a protocol error',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([
      openai({ role: 'assistant', content: 'One ' }),
      chunker('chatcmpl-OTHER', 'gpt-4o-2024-08-06')({ role: 'assistant', content: 'two' }),
      openai({}, 'stop'),
    ]),
    expect: { error: { kind: 'unknown', retryable: false, message: /second reply/ }, requests: 1 },
  },
  {
    name: 'openai: text after the finish is not part of the turn',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([openai({ role: 'assistant', content: 'Done.' }), openai({}, 'stop'), openai({ content: ' And more.' })]),
    expect: { text: 'Done.' },
  },
  {
    name: 'openai: a stream cut before its finish_reason is retried, never taken for a turn',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody(
      [
        openai({ role: 'assistant', content: 'Cut' }),
        openai(call(0, { id: 'call_X', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } })),
      ],
      false,
    ),
    expect: { error: { kind: 'network', retryable: true }, requests: 3 },
  },
  {
    name: 'openai: a whole JSON completion where a stream was asked for is read once',
    api: 'chat',
    model: 'deepseek-reasoner',
    json: true,
    body: JSON.stringify({
      id: 'chatcmpl-JSON',
      object: 'chat.completion',
      created: 1_750_000_000,
      model: 'deepseek-reasoner',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Reading.',
            reasoning_content: 'Look first.',
            tool_calls: [{ id: 'call_J', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 },
    }),
    expect: {
      text: 'Reading.',
      reasoning: { format: 'reasoning_content', blocks: [{ type: 'text', text: 'Look first.' }] },
      intents: [{ providerRef: 'call_J', tool: 'read_file', input: { path: 'a.ts' } }],
      usage: { inputTokens: 30, outputTokens: 10 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'openai: a JSON error body with status 200 is reported once, not re-sent',
    api: 'chat',
    model: 'gpt-4o',
    json: true,
    body: JSON.stringify({
      error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null },
    }),
    expect: { error: { kind: 'unknown', retryable: false }, requests: 1 },
  },
];
