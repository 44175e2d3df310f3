// Issue 35 items 1, 2 and 9, the request side: what Keel sends after a reasoning turn and a tool
// turn, per model and per server, as the model table and the servers' rules say — which token
// field, which reasoning fields, whether a turn's reasoning goes back and in what form — and the
// reasoning setting as the user writes it.
import assert from 'node:assert/strict';
import type { ModelMessage, ModelRequest, Reasoning } from '../../../../src/kernel/index.js';
import { toAnthropicParams } from '../../../../src/providers/anthropic-request.js';
import { chatRequestRules } from '../../../../src/providers/openai.js';
import { toOpenAIParams } from '../../../../src/providers/openai-request.js';
import { anthropicThinking, parseReasoning } from '../../../../src/providers/reasoning.js';
import { rulesOf } from '../../../../src/providers/models.js';

const THINKING: Reasoning = {
  format: 'anthropic',
  blocks: [
    { type: 'text', text: 'Look first.', signature: 'c2ln' },
    { type: 'encrypted', data: 'ZGF0YQ==' },
  ],
};
const CONTENT: Reasoning = { format: 'reasoning_content', blocks: [{ type: 'text', text: 'Need the file.' }] };

function toolTurn(reasoning?: Reasoning): ModelMessage[] {
  return [
    { role: 'user', text: 'Read a.ts' },
    {
      role: 'assistant',
      text: 'Reading.',
      toolCalls: [{ intentId: 'i1', providerRef: 'call_1', tool: 'read_file', input: { path: 'a.ts' } }],
      ...(reasoning ? { reasoning } : {}),
    },
    { role: 'tool_result', intentId: 'i1', providerRef: 'call_1', tool: 'read_file', content: 'alpha', isError: false },
  ];
}

const request = (messages: ModelMessage[], extra: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'sys',
  messages,
  tools: [],
  ...extra,
});

function anthropicParams(model: string, setting: Parameters<typeof anthropicThinking>[1], req: ModelRequest) {
  return toAnthropicParams(req, {
    model,
    maxOutputTokens: 32_000,
    vision: true,
    promptCaching: false,
    thinking: anthropicThinking(rulesOf(model).reasoning, setting),
  });
}

function chatParams(opts: Parameters<typeof chatRequestRules>[0], req: ModelRequest) {
  return toOpenAIParams(req, { ...chatRequestRules(opts), maxOutputTokens: 4096, vision: false }) as unknown as Record<string, any>;
}

describe('provider conformance: what Keel sends', () => {
  describe('Anthropic', () => {
    it('thinking on a budget model: blocks (signatures, redacted data) go back before the tool_use, unmodified', () => {
      const params = anthropicParams('claude-haiku-4-5', 'medium', request(toolTurn(THINKING)));
      assert.deepEqual(params.thinking, { type: 'enabled', budget_tokens: 12_000 });
      assert.deepEqual((params.messages[1]!.content as unknown[]).slice(0, 2), [
        { type: 'thinking', thinking: 'Look first.', signature: 'c2ln' },
        { type: 'redacted_thinking', data: 'ZGF0YQ==' },
      ]);
      assert.equal((params.messages[1]!.content as { type: string }[])[3]!.type, 'tool_use');
    });

    it('a budget in tokens is the budget; adaptive models take an effort instead, and "off" turns them off', () => {
      assert.deepEqual(anthropicParams('claude-haiku-4-5', 5000, request([{ role: 'user', text: 'hi' }])).thinking, {
        type: 'enabled',
        budget_tokens: 5000,
      });
      const adaptive = anthropicParams('claude-sonnet-5-5', 'medium', request([{ role: 'user', text: 'hi' }]));
      assert.deepEqual(adaptive.thinking, { type: 'adaptive' });
      assert.deepEqual(adaptive.output_config, { effort: 'medium' });
      assert.deepEqual(anthropicParams('claude-opus-4-7', 20_000, request([{ role: 'user', text: 'hi' }])).output_config, {
        effort: 'medium',
      });
      assert.deepEqual(anthropicParams('claude-sonnet-5-5', 'off', request([{ role: 'user', text: 'hi' }])).thinking, { type: 'disabled' });
    });

    it('by default thinking stays off and no thinking block is sent', () => {
      const params = anthropicParams('claude-haiku-4-5', 'default', request(toolTurn(THINKING)));
      assert.equal(params.thinking, undefined);
      assert.equal(params.output_config, undefined);
      assert.ok(!(params.messages[1]!.content as { type: string }[]).some((b) => b.type === 'thinking' || b.type === 'redacted_thinking'));
    });

    it('a tool turn that has no thinking (written with it off, or by another API) sends the request without thinking', () => {
      assert.equal(anthropicParams('claude-haiku-4-5', 'high', request(toolTurn(CONTENT))).thinking, undefined);
      assert.equal(anthropicParams('claude-haiku-4-5', 'high', request(toolTurn())).thinking, undefined);
    });

    it('an episode note goes without thinking', () => {
      assert.equal(anthropicParams('claude-haiku-4-5', 'high', request(toolTurn(THINKING), { purpose: 'note' })).thinking, undefined);
    });
  });

  describe('chat completions', () => {
    it('DeepSeek: the tool turn’s reasoning_content goes back; a turn without calls goes without; max_tokens', () => {
      const messages: ModelMessage[] = [
        ...toolTurn(CONTENT),
        { role: 'assistant', text: 'It says alpha.', toolCalls: [], reasoning: CONTENT },
        { role: 'user', text: 'thanks' },
      ];
      const params = chatParams({ model: 'deepseek-reasoner', baseURL: 'https://api.deepseek.com' }, request(messages));
      assert.equal(params.messages[2].reasoning_content, 'Need the file.');
      assert.equal(params.messages[4].reasoning_content, undefined);
      assert.equal(params.max_tokens, 4096);
      assert.equal(params.max_completion_tokens, undefined);
    });

    it('DeepSeek: the reasoning setting is its thinking switch and effort; "off" turns thinking off', () => {
      const on = chatParams({ model: 'deepseek-reasoner', baseURL: 'https://api.deepseek.com', reasoning: 'low' }, request(toolTurn()));
      assert.deepEqual([on.thinking, on.reasoning_effort], [{ type: 'enabled' }, 'low']);
      const off = chatParams({ model: 'deepseek-chat', baseURL: 'https://api.deepseek.com', reasoning: 'off' }, request(toolTurn()));
      assert.deepEqual([off.thinking, off.reasoning_effort], [{ type: 'disabled' }, undefined]);
    });

    it('Groq refuses reasoning on an assistant message: it is left out', () => {
      const params = chatParams(
        { model: 'openai/gpt-oss-120b', baseURL: 'https://api.groq.com/openai/v1' },
        request(toolTurn({ format: 'reasoning', blocks: [{ type: 'text', text: 'x' }] })),
      );
      assert.equal(params.messages[2].reasoning, undefined);
      assert.equal(params.messages[2].reasoning_content, undefined);
    });

    it('Mistral refuses unknown fields: no stream_options, no max_completion_tokens', () => {
      const params = chatParams({ model: 'magistral-medium-2509', baseURL: 'https://api.mistral.ai/v1' }, request(toolTurn()));
      assert.equal(params.stream_options, undefined);
      assert.equal(params.max_completion_tokens, undefined);
      assert.equal(params.max_tokens, 4096);
    });

    it('another API’s reasoning (Anthropic’s signatures) never goes to a chat server', () => {
      const params = chatParams({ model: 'qwen3:8b', baseURL: 'http://127.0.0.1:11434/v1' }, request(toolTurn(THINKING)));
      assert.deepEqual(Object.keys(params.messages[2]).sort(), ['content', 'role', 'tool_calls']);
    });

    it('the token field: an OpenAI reasoning model takes max_completion_tokens even behind a base URL; the user can say', () => {
      const field = (opts: Parameters<typeof chatRequestRules>[0]) => chatRequestRules(opts).maxTokensField;
      assert.equal(field({ model: 'gpt-5-mini', baseURL: 'https://my-gateway.example/v1' }), 'max_completion_tokens');
      assert.equal(field({ model: 'o4-mini', baseURL: 'https://res.openai.azure.com/openai/v1' }), 'max_completion_tokens');
      assert.equal(field({ model: 'gpt-4o' }), 'max_completion_tokens');
      assert.equal(field({ model: 'my-deployment', baseURL: 'https://res.openai.azure.com/openai/v1' }), 'max_tokens');
      assert.equal(
        field({ model: 'my-deployment', baseURL: 'https://res.openai.azure.com/openai/v1', maxTokensParam: 'max_completion_tokens' }),
        'max_completion_tokens',
      );
    });

    it('reasoning_effort for models that take one, the nearest level they accept; none for models that take none', () => {
      assert.equal(chatParams({ model: 'o3', reasoning: 'medium' }, request(toolTurn())).reasoning_effort, 'medium');
      assert.equal(
        chatParams({ model: 'grok-3-mini', baseURL: 'https://api.x.ai/v1', reasoning: 'medium' }, request(toolTurn())).reasoning_effort,
        'high',
      );
      assert.equal(chatParams({ model: 'gpt-4o', reasoning: 'high' }, request(toolTurn())).reasoning_effort, undefined);
      assert.equal(chatParams({ model: 'o3', reasoning: 'high' }, request(toolTurn(), { purpose: 'note' })).reasoning_effort, undefined);
    });
  });

  it('the reasoning setting as written: levels, a budget of at least 1024 tokens, nothing else', () => {
    assert.equal(parseReasoning(undefined), 'default');
    assert.equal(parseReasoning(' High '), 'high');
    assert.equal(parseReasoning('off'), 'off');
    assert.equal(parseReasoning('16000'), 16_000);
    for (const bad of ['1023', 'max', '1e5', '-2000', 'lots']) assert.equal(parseReasoning(bad), undefined, bad);
  });
});
