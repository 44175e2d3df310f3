// The local servers' chat-completions streams, written from their documentation of the
// OpenAI-compatible endpoint, with the quirks each documents or is known for: Ollama (reasoning
// in `reasoning`, a call sent whole in one chunk, and finish_reason "stop" after it), LM Studio
// (`reasoning_content`, arguments streamed in pieces after the name), llama.cpp's server
// (`timings` and usage on the finish chunk, a placeholder model name) and vLLM (`reasoning`,
// `stop_reason` beside finish_reason, the usage chunk last).
import { chatBody, type StreamCase } from './cases.js';

const chunk = (
  id: string,
  model: string,
  delta: Record<string, unknown>,
  finish: string | null = null,
  more: Record<string, unknown> = {},
) => ({
  id,
  object: 'chat.completion.chunk',
  created: 1_750_000_000,
  model,
  system_fingerprint: 'fp_local',
  choices: [{ index: 0, delta, finish_reason: finish, ...((more.choice as object) ?? {}) }],
  ...Object.fromEntries(Object.entries(more).filter(([k]) => k !== 'choice')),
});

export const LOCAL_CASES: StreamCase[] = [
  {
    name: 'ollama: reasoning, then a call whole in one chunk, finish_reason "stop"',
    api: 'chat',
    model: 'qwen3:8b',
    body: chatBody([
      chunk('chatcmpl-512', 'qwen3:8b', { role: 'assistant', content: '', reasoning: 'Okay, the user wants ' }),
      chunk('chatcmpl-512', 'qwen3:8b', { role: 'assistant', content: '', reasoning: 'the file list.' }),
      chunk('chatcmpl-512', 'qwen3:8b', {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_6x8j2u1k', index: 0, type: 'function', function: { name: 'list_files', arguments: '{"dir":"."}' } }],
      }),
      chunk('chatcmpl-512', 'qwen3:8b', { role: 'assistant', content: '' }, 'stop'),
      {
        id: 'chatcmpl-512',
        object: 'chat.completion.chunk',
        created: 1_750_000_000,
        model: 'qwen3:8b',
        system_fingerprint: 'fp_ollama',
        choices: [],
        usage: { prompt_tokens: 210, completion_tokens: 44, total_tokens: 254 },
      },
    ]),
    expect: {
      reasoningText: 'Okay, the user wants the file list.',
      reasoning: { format: 'reasoning', blocks: [{ type: 'text', text: 'Okay, the user wants the file list.' }] },
      intents: [{ providerRef: 'call_6x8j2u1k', tool: 'list_files', input: { dir: '.' } }],
      usage: { inputTokens: 210, outputTokens: 44, cacheReadTokens: 0 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'ollama: a server that ignores include_usage sends no usage (no false zero)',
    api: 'chat',
    model: 'llama3.2',
    body: chatBody([
      chunk('chatcmpl-7', 'llama3.2', { role: 'assistant', content: 'Hi' }),
      chunk('chatcmpl-7', 'llama3.2', { role: 'assistant', content: ' there.' }),
      chunk('chatcmpl-7', 'llama3.2', { role: 'assistant', content: '' }, 'stop'),
    ]),
    expect: { text: 'Hi there.' },
  },
  {
    name: 'lm studio: reasoning_content, then arguments streamed after the name',
    api: 'chat',
    model: 'qwen/qwen3-coder-30b',
    body: chatBody([
      chunk('chatcmpl-lms1', 'qwen/qwen3-coder-30b', { role: 'assistant', reasoning_content: 'Read ' }),
      chunk('chatcmpl-lms1', 'qwen/qwen3-coder-30b', { reasoning_content: 'it.' }),
      chunk('chatcmpl-lms1', 'qwen/qwen3-coder-30b', {
        tool_calls: [{ index: 0, id: '365174485', type: 'function', function: { name: 'read_file', arguments: '' } }],
      }),
      chunk('chatcmpl-lms1', 'qwen/qwen3-coder-30b', { tool_calls: [{ index: 0, type: 'function', function: { arguments: '{"path":' } }] }),
      chunk('chatcmpl-lms1', 'qwen/qwen3-coder-30b', { tool_calls: [{ index: 0, type: 'function', function: { arguments: '"b.ts"}' } }] }),
      chunk('chatcmpl-lms1', 'qwen/qwen3-coder-30b', {}, 'tool_calls'),
      {
        id: 'chatcmpl-lms1',
        object: 'chat.completion.chunk',
        created: 1_750_000_000,
        model: 'qwen/qwen3-coder-30b',
        choices: [],
        usage: { prompt_tokens: 95, completion_tokens: 20, total_tokens: 115 },
      },
    ]),
    expect: {
      reasoning: { format: 'reasoning_content', blocks: [{ type: 'text', text: 'Read it.' }] },
      intents: [{ providerRef: '365174485', tool: 'read_file', input: { path: 'b.ts' } }],
      usage: { outputTokens: 20 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'llama.cpp: usage and timings on the finish chunk, a placeholder model name',
    api: 'chat',
    model: 'local',
    body: chatBody([
      chunk('chatcmpl-Zq3', 'gpt-3.5-turbo', { role: 'assistant', content: null }),
      chunk('chatcmpl-Zq3', 'gpt-3.5-turbo', { reasoning_content: 'Hm.' }),
      chunk('chatcmpl-Zq3', 'gpt-3.5-turbo', { content: 'Answer' }),
      chunk('chatcmpl-Zq3', 'gpt-3.5-turbo', { content: ' here.' }),
      chunk('chatcmpl-Zq3', 'gpt-3.5-turbo', {}, 'stop', {
        usage: { completion_tokens: 6, prompt_tokens: 33, total_tokens: 39 },
        timings: { prompt_n: 33, prompt_ms: 41.2, predicted_n: 6, predicted_ms: 80.5, predicted_per_second: 74.5 },
      }),
    ]),
    expect: { text: 'Answer here.', reasoningText: 'Hm.', usage: { inputTokens: 33, outputTokens: 6 } },
  },
  {
    name: 'vllm: `reasoning`, a call in pieces, stop_reason beside finish_reason, usage last',
    api: 'chat',
    model: 'Qwen/Qwen3-32B',
    body: chatBody([
      chunk('chatcmpl-9f2e', 'Qwen/Qwen3-32B', { role: 'assistant', content: '' }, null, { choice: { logprobs: null } }),
      chunk('chatcmpl-9f2e', 'Qwen/Qwen3-32B', { reasoning: 'Plan: search.' }, null, { choice: { logprobs: null } }),
      chunk('chatcmpl-9f2e', 'Qwen/Qwen3-32B', {
        tool_calls: [{ id: 'chatcmpl-tool-8c1d', type: 'function', index: 0, function: { name: 'search' } }],
      }),
      chunk('chatcmpl-9f2e', 'Qwen/Qwen3-32B', { tool_calls: [{ index: 0, function: { arguments: '{"query": ' } }] }),
      chunk('chatcmpl-9f2e', 'Qwen/Qwen3-32B', { tool_calls: [{ index: 0, function: { arguments: '"tokens"}' } }] }),
      chunk('chatcmpl-9f2e', 'Qwen/Qwen3-32B', { content: '' }, 'tool_calls', { choice: { stop_reason: null } }),
      {
        id: 'chatcmpl-9f2e',
        object: 'chat.completion.chunk',
        created: 1_750_000_000,
        model: 'Qwen/Qwen3-32B',
        choices: [],
        usage: { prompt_tokens: 61, total_tokens: 90, completion_tokens: 29 },
      },
    ]),
    expect: {
      reasoningText: 'Plan: search.',
      intents: [{ providerRef: 'chatcmpl-tool-8c1d', tool: 'search', input: { query: 'tokens' } }],
      usage: { inputTokens: 61, outputTokens: 29 },
      stop: 'tool_intent',
    },
  },
];
