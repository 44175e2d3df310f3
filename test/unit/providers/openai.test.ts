// OpenAI-only behaviour: the usage chunk, the reasoning fields of OpenAI-compatible servers,
// servers that send no usage, and the request the SDK actually sends.
import assert from 'node:assert/strict';
import type { ModelRequest } from '../../../src/kernel/index.js';
import { createOpenAIProvider } from '../../../src/providers/openai.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { dataLines, openaiChunks, openaiSse } from '../../support/openai-wire.js';
import { FAST_RETRY, READ_TOOL, kindsOf, openai, run, textOf, typesOf } from './vendors.js';

const CONVERSATION: ModelRequest = {
  system: 'You are Keel.',
  tools: [READ_TOOL],
  messages: [
    { role: 'user', text: 'Look.', images: [{ mediaType: 'image/jpeg', data: '/9j/4AAQ' }] },
    {
      role: 'assistant',
      text: '',
      toolCalls: [
        { intentId: 'k1', providerRef: 'call_A', tool: 'read_note', input: { path: 'a' } },
        { intentId: 'k2', providerRef: 'call_B', tool: 'read_note', input: { path: 'b' } },
      ],
    },
    { role: 'tool_result', intentId: 'k1', providerRef: 'call_A', tool: 'read_note', content: 'alpha', isError: false },
    { role: 'tool_result', intentId: 'k2', providerRef: 'call_B', tool: 'read_note', content: 'no such file', isError: true },
  ],
};

describe('openai provider: wire specifics', function () {
  this.timeout(10_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  it('an OpenAI reasoning model behind a base URL gets max_completion_tokens (it refuses max_tokens); a local model max_tokens', async () => {
    server = await startModelServer(conversation([{ text: ['a'] }, { text: ['b'] }]));
    await run(createOpenAIProvider({ baseURL: server.openaiBaseURL, apiKey: 'k', model: 'gpt-5-mini', retry: FAST_RETRY }));
    await run(createOpenAIProvider({ baseURL: server.openaiBaseURL, apiKey: 'k', model: 'llama3.1:8b', retry: FAST_RETRY }));
    const [reasoning, local] = server.requests.map((r) => r.body);
    assert.ok(reasoning.max_completion_tokens > 0 && reasoning.max_tokens === undefined, JSON.stringify(reasoning));
    assert.ok(local.max_tokens > 0 && local.max_completion_tokens === undefined, JSON.stringify(local));
  });

  it('reads usage from the final chunk with empty choices, cached tokens apart', async () => {
    server = await startModelServer([
      { type: 'stream', body: openaiSse({ text: ['hi'], usage: { input: 400, cacheRead: 600, output: 9 } }) },
    ]);
    const usage = (await run(openai.provider(server))).find((e) => e.type === 'usage');
    assert.ok(usage?.type === 'usage');
    assert.deepEqual([usage.usage.inputTokens, usage.usage.cacheReadTokens, usage.usage.outputTokens], [400, 600, 9]);
    // gpt-4o: $2.50 in, $1.25 cached, $10 out per million.
    assert.ok(Math.abs(usage.usage.costUsd! - (400 * 2.5 + 600 * 1.25 + 9 * 10) / 1e6) < 1e-12);
  });

  for (const field of ['reasoning_content', 'reasoning'] as const) {
    it(`streams the \`${field}\` field of OpenAI-compatible servers as reasoning`, async () => {
      const body = dataLines(openaiChunks({ reasoning: ['Thinking ', 'hard.'], text: ['Answer.'] }, { reasoningField: field }));
      server = await startModelServer([{ type: 'stream', body }]);
      const events = await run(openai.provider(server, { model: 'qwen3-coder' }));
      assert.deepEqual(kindsOf(events).slice(0, 2), ['reasoning_delta', 'text_delta']);
      assert.equal(events.map((e) => (e.type === 'reasoning_delta' ? e.text : '')).join(''), 'Thinking hard.');
      assert.equal(textOf(events), 'Answer.');
    });
  }

  it('gives no usage event when the server sends no usage (rather than a false zero)', async () => {
    server = await startModelServer([{ type: 'stream', body: dataLines(openaiChunks({ text: ['hi'] }, { noUsage: true })) }]);
    const events = await run(openai.provider(server));
    assert.deepEqual(typesOf(events), ['text_delta', 'final']);
  });

  it('asks for usage in the stream and sends one tool message per result under the call ids', async () => {
    server = await startModelServer(conversation([{ text: ['ok'] }]));
    const provider = createOpenAIProvider({ baseURL: server.openaiBaseURL, model: 'gpt-4o', retry: FAST_RETRY });
    await run(provider, CONVERSATION);
    const body = server.requests[0]!.body;
    assert.equal(server.requests[0]!.path, '/v1/chat/completions');
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.deepEqual(
      body.messages.map((m: { role: string }) => m.role),
      ['system', 'user', 'assistant', 'tool', 'tool'],
    );
    const assistant = body.messages[2];
    assert.deepEqual(
      assistant.tool_calls.map((c: { id: string; function: { name: string; arguments: string } }) => [
        c.id,
        c.function.name,
        JSON.parse(c.function.arguments),
      ]),
      [
        ['call_A', 'read_note', { path: 'a' }],
        ['call_B', 'read_note', { path: 'b' }],
      ],
    );
    assert.deepEqual(
      body.messages.slice(3).map((m: { tool_call_id: string; content: string }) => [m.tool_call_id, m.content]),
      [
        ['call_A', 'alpha'],
        ['call_B', 'Error: no such file'],
      ],
    );
    assert.deepEqual(body.messages[1].content[0], { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } });
    assert.deepEqual(body.tools[0].function.parameters, { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
  });

  it('leaves images out for a model without vision, and says so', async () => {
    server = await startModelServer(conversation([{ text: ['ok'] }]));
    await run(openai.provider(server, { model: 'llama3.1:8b' }), CONVERSATION);
    const user = server.requests[0]!.body.messages[1];
    assert.equal(typeof user.content, 'string');
    assert.match(user.content, /1 image\(s\) left out/);
  });

  it('sends a placeholder key to a local server when none is set', async () => {
    server = await startModelServer(conversation([{ text: ['ok'] }]));
    await run(openai.provider(server, { apiKey: '' }));
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer not-needed');
  });

  it('gives each call an id when a server sends none', async () => {
    const chunks = openaiChunks({ toolCalls: [{ id: '', name: 'read_note', input: { path: 'a' } }] });
    server = await startModelServer([{ type: 'stream', body: dataLines(chunks) }]);
    const intent = (await run(openai.provider(server))).find((e) => e.type === 'tool_intent');
    assert.ok(intent?.type === 'tool_intent' && intent.providerRef.length > 0 && intent.tool === 'read_note');
  });
});
