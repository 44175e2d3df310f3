// Chat-completions streams of the hosted OpenAI-compatible vendors, written from each one's API
// reference: OpenAI (usage chunk, cached tokens, refusal, parallel calls split anywhere), Azure
// (the prompt-filter chunk first), DeepSeek and Kimi (`reasoning_content`, cache hits in their
// own fields), Qwen, Mistral (content as text and thinking parts), xAI (reasoning tokens
// reported apart), Perplexity (`citations`), Groq (`reasoning`, usage in `x_groq`). The errors,
// splices, cuts and whole JSON answers a stream can turn out to be are in chat-failure-cases.ts.
import { chatBody, type StreamCase } from './cases.js';

export function chunker(id: string, model: string, extra: Record<string, unknown> = {}) {
  return (delta: Record<string, unknown>, finish: string | null = null, more: Record<string, unknown> = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created: 1_750_000_000,
    model,
    ...extra,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...more,
  });
}

function usageChunk(id: string, model: string, usage: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { id, object: 'chat.completion.chunk', created: 1_750_000_000, model, ...extra, choices: [], usage };
}

export const call = (index: number, fields: Record<string, unknown>) => ({ tool_calls: [{ index, ...fields }] });

export const openai = chunker('chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT', 'gpt-4o-2024-08-06', {
  system_fingerprint: 'fp_a7d06e42a7',
  service_tier: 'default',
});
const deepseek = chunker('d2a4c5e0-8f4b-4a43-9a1c-1f3b2a6e0c11', 'deepseek-reasoner', {
  system_fingerprint: 'fp_ffc7281d48_prod0820_fp8_kvcache',
});
const kimi = chunker('chatcmpl-68b2c0f4d1e9a7b3c5f60a12', 'kimi-k2-thinking');
const qwen = chunker('chatcmpl-1b7f0c3e-9a2d-4e1f-8c6b-5d4a3e2f1b0c', 'qwen3-235b-a22b-thinking-2507');
const mistral = chunker('cf5e2b4d7a9c4e1f8b3a6d0c2e5f7a91', 'magistral-medium-2509');
const grok = chunker('3f1c9e27-5b8a-4d6e-a0f2-7c4b1e9d8a36', 'grok-3-mini', { system_fingerprint: 'fp_6ca29cf396' });
const sonar = chunker('6d1f3a8e-2c7b-4e9a-b5d0-8f2e4c6a1b37', 'sonar-pro');
const groq = chunker('chatcmpl-4e8b2f6a-1d3c-4a7e-9b5f-0c2d8e6a4f13', 'openai/gpt-oss-120b', { system_fingerprint: 'fp_1e7bfc6b9f' });

const OPENAI_USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 48,
  total_tokens: 1248,
  prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

const PERPLEXITY_SOURCES = ['https://nodejs.org/en/about/previous-releases', 'https://github.com/nodejs/release#release-schedule'];

export const CHAT_CASES: StreamCase[] = [
  {
    name: 'openai: text, then the usage chunk with cached tokens',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([
      openai({ role: 'assistant', content: '', refusal: null }, null, { usage: null }),
      openai({ content: 'Hello' }, null, { usage: null }),
      openai({ content: ', world.' }, null, { usage: null }),
      openai({}, 'stop', { usage: null }),
      usageChunk('chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT', 'gpt-4o-2024-08-06', OPENAI_USAGE),
    ]),
    expect: { text: 'Hello, world.', reasoning: null, usage: { inputTokens: 176, cacheReadTokens: 1024, outputTokens: 48 } },
  },
  {
    name: 'openai: two parallel calls, ids and names first, arguments split inside strings and escapes',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([
      openai({ role: 'assistant', content: null, refusal: null }),
      openai(call(0, { id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', type: 'function', function: { name: 'read_file', arguments: '' } })),
      openai(call(0, { function: { arguments: '{"pa' } })),
      openai(call(0, { function: { arguments: 'th": "a\\\\b' } })),
      openai(call(1, { id: 'call_ABHdoCTeDp3sUp1eVpXjYNpV', type: 'function', function: { name: 'search', arguments: '' } })),
      openai(call(0, { function: { arguments: '.ts"}' } })),
      openai(call(1, { function: { arguments: '{"query":"caf\\u00e9 \\"x\\""}' } })),
      openai({}, 'tool_calls'),
    ]),
    expect: {
      intents: [
        { providerRef: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', tool: 'read_file', input: { path: 'a\\b.ts' } },
        { providerRef: 'call_ABHdoCTeDp3sUp1eVpXjYNpV', tool: 'search', input: { query: 'café "x"' } },
      ],
      stop: 'tool_intent',
    },
  },
  {
    name: 'openai: a refusal is shown as text and proposes nothing',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([
      openai({ role: 'assistant', content: null, refusal: '' }),
      openai({ refusal: "I'm sorry, I can't help with that." }),
      openai({}, 'stop'),
    ]),
    expect: { text: "I'm sorry, I can't help with that." },
  },
  {
    name: 'azure: the prompt-filter chunk (no id, no choices) comes first',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([
      {
        id: '',
        object: '',
        created: 0,
        model: '',
        choices: [],
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }],
      },
      openai({ role: 'assistant', content: '' }, null, { content_filter_results: {} }),
      openai({ content: 'Azure says hi.' }, null, { content_filter_results: { hate: { filtered: false, severity: 'safe' } } }),
      openai({}, 'stop'),
      usageChunk('chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT', 'gpt-4o-2024-08-06', {
        prompt_tokens: 20,
        completion_tokens: 5,
        total_tokens: 25,
      }),
    ]),
    expect: { text: 'Azure says hi.', usage: { inputTokens: 20, outputTokens: 5 } },
  },
  {
    name: 'azure: a reply the content filter stopped says so, and proposes nothing',
    api: 'chat',
    model: 'gpt-4o',
    body: chatBody([
      openai({ role: 'assistant', content: '' }),
      openai({ content: 'Here is how' }),
      openai(call(0, { id: 'call_F', type: 'function', function: { name: 'run_command', arguments: '{"command":"' } })),
      openai({}, 'content_filter', { content_filter_results: { violence: { filtered: true, severity: 'medium' } } }),
    ]),
    expect: {
      text: 'Here is how\n\nThe reply was stopped by the server’s content filter (finish_reason content_filter).',
      intents: [],
      stop: 'refusal',
    },
  },
  {
    name: 'deepseek: reasoning_content, then a tool call; cache hits in prompt_cache_hit_tokens',
    api: 'chat',
    model: 'deepseek-reasoner',
    body: chatBody([
      deepseek({ role: 'assistant', content: null, reasoning_content: '' }),
      deepseek({ content: null, reasoning_content: 'I need the ' }),
      deepseek({ content: null, reasoning_content: 'weather first.' }),
      deepseek(call(0, { id: 'call_00_rjvO9H0ZkWb0qJXGMmLqcKqh', type: 'function', function: { name: 'get_weather', arguments: '' } })),
      deepseek(call(0, { function: { arguments: '{"location":"Hangzhou"}' } })),
      deepseek({ content: '' }, 'tool_calls', {
        usage: {
          prompt_tokens: 900,
          completion_tokens: 60,
          total_tokens: 960,
          prompt_tokens_details: { cached_tokens: 640 },
          completion_tokens_details: { reasoning_tokens: 41 },
          prompt_cache_hit_tokens: 640,
          prompt_cache_miss_tokens: 260,
        },
      }),
    ]),
    expect: {
      reasoningText: 'I need the weather first.',
      reasoning: { format: 'reasoning_content', blocks: [{ type: 'text', text: 'I need the weather first.' }] },
      intents: [{ providerRef: 'call_00_rjvO9H0ZkWb0qJXGMmLqcKqh', tool: 'get_weather', input: { location: 'Hangzhou' } }],
      usage: { inputTokens: 260, cacheReadTokens: 640, outputTokens: 60 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'deepseek: cache hits reported only in prompt_cache_hit_tokens',
    api: 'chat',
    model: 'deepseek-chat',
    body: chatBody([
      deepseek({ role: 'assistant', content: '' }),
      deepseek({ content: 'ok' }),
      deepseek({ content: '' }, 'stop', {
        usage: { prompt_tokens: 500, completion_tokens: 2, total_tokens: 502, prompt_cache_hit_tokens: 384, prompt_cache_miss_tokens: 116 },
      }),
    ]),
    expect: { text: 'ok', usage: { inputTokens: 116, cacheReadTokens: 384, outputTokens: 2 } },
  },
  {
    name: 'kimi: reasoning_content before the answer, cached_tokens in usage',
    api: 'chat',
    model: 'kimi-k2-thinking',
    body: chatBody([
      kimi({ role: 'assistant', content: '' }),
      kimi({ reasoning_content: 'Simple greeting.' }),
      kimi({ content: '你好！' }),
      kimi({}, 'stop', { usage: { prompt_tokens: 80, completion_tokens: 30, total_tokens: 110, cached_tokens: 64 } }),
    ]),
    expect: {
      text: '你好！',
      reasoning: { format: 'reasoning_content', blocks: [{ type: 'text', text: 'Simple greeting.' }] },
      usage: { inputTokens: 16, cacheReadTokens: 64, outputTokens: 30 },
    },
  },
  {
    name: 'qwen: reasoning_content and text in the same chunk',
    api: 'chat',
    model: 'qwen3-235b-a22b-thinking-2507',
    body: chatBody([
      qwen({ role: 'assistant', content: '', reasoning_content: 'Think. ' }),
      qwen({ content: 'Answer', reasoning_content: 'Done thinking.' }),
      qwen({ content: '.' }, 'stop'),
      {
        ...usageChunk('chatcmpl-1b7f0c3e-9a2d-4e1f-8c6b-5d4a3e2f1b0c', 'qwen3-235b-a22b-thinking-2507', {
          prompt_tokens: 10,
          completion_tokens: 9,
          total_tokens: 19,
        }),
      },
    ]),
    expect: { text: 'Answer.', reasoningText: 'Think. Done thinking.', usage: { outputTokens: 9 } },
  },
  {
    name: 'mistral: content as thinking and text parts, then a tool call',
    api: 'chat',
    model: 'magistral-medium-2509',
    body: chatBody([
      mistral({ role: 'assistant', content: '' }),
      mistral({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'The user asks for ' }] }] }),
      mistral({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'the file.' }] }] }),
      mistral({ content: [{ type: 'text', text: 'Let me read ' }] }),
      mistral({ content: [{ type: 'text', text: 'it.' }] }),
      mistral(
        { content: '', tool_calls: [{ id: 'D681PevKs', function: { name: 'read_file', arguments: '{"path": "a.ts"}' }, index: 0 }] },
        'tool_calls',
        { usage: { prompt_tokens: 140, total_tokens: 210, completion_tokens: 70 } },
      ),
    ]),
    expect: {
      text: 'Let me read it.',
      reasoningText: 'The user asks for the file.',
      reasoning: { format: 'thinking_parts', blocks: [{ type: 'text', text: 'The user asks for the file.' }] },
      intents: [{ providerRef: 'D681PevKs', tool: 'read_file', input: { path: 'a.ts' } }],
      usage: { inputTokens: 140, outputTokens: 70 },
      stop: 'tool_intent',
    },
  },
  {
    name: 'xai: reasoning tokens reported apart from completion_tokens are counted as output',
    api: 'chat',
    model: 'grok-3-mini',
    body: chatBody([
      grok({ role: 'assistant', content: '' }),
      grok({ reasoning_content: 'Quick.' }),
      grok({ content: '4' }),
      grok({}, 'stop'),
      usageChunk('3f1c9e27-5b8a-4d6e-a0f2-7c4b1e9d8a36', 'grok-3-mini', {
        prompt_tokens: 14,
        completion_tokens: 1,
        total_tokens: 305,
        prompt_tokens_details: { text_tokens: 14, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 290, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        num_sources_used: 0,
      }),
    ]),
    expect: { text: '4', usage: { inputTokens: 14, outputTokens: 291 } },
  },
  {
    name: 'perplexity: the [n] markers become links to the cited sources',
    api: 'chat',
    model: 'sonar-pro',
    body: chatBody([
      sonar({ role: 'assistant', content: 'Node 22 is LTS [1]' }, null, { citations: PERPLEXITY_SOURCES, object: 'chat.completion.chunk' }),
      sonar({ content: '[2].' }, null, { citations: PERPLEXITY_SOURCES }),
      sonar({ content: '' }, 'stop', {
        citations: PERPLEXITY_SOURCES,
        search_results: PERPLEXITY_SOURCES.map((url, i) => ({ title: `Source ${i + 1}`, url, date: null })),
        usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21, search_context_size: 'low' },
      }),
    ]),
    expect: {
      text: `Node 22 is LTS [1][2].\n\n[1]: <${PERPLEXITY_SOURCES[0]}>\n[2]: <${PERPLEXITY_SOURCES[1]}>\n`,
      usage: { outputTokens: 12 },
    },
  },
  {
    name: 'groq: reasoning in `reasoning`, usage in x_groq',
    api: 'chat',
    model: 'openai/gpt-oss-120b',
    body: chatBody([
      groq({ role: 'assistant', content: '' }, null, { x_groq: { id: 'req_01k2' } }),
      groq({ reasoning: 'Need a tool.' }),
      groq(call(0, { id: 'fc_5e2f', type: 'function', function: { name: 'list_files', arguments: '{}' } })),
      groq({}, 'tool_calls', {
        x_groq: { id: 'req_01k2', usage: { queue_time: 0.05, prompt_tokens: 300, completion_tokens: 25, total_tokens: 325 } },
      }),
    ]),
    expect: {
      reasoning: { format: 'reasoning', blocks: [{ type: 'text', text: 'Need a tool.' }] },
      intents: [{ providerRef: 'fc_5e2f', tool: 'list_files', input: {} }],
      usage: { inputTokens: 300, outputTokens: 25 },
      stop: 'tool_intent',
    },
  },
];
