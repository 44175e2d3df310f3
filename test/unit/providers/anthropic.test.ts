// Anthropic-only behaviour: pings, thinking, cumulative usage with cache tokens, and the
// request the SDK actually sends (tool results grouped, call ids echoed, cache breakpoints).
import assert from 'node:assert/strict';
import type { ModelRequest } from '../../../src/kernel/index.js';
import { createAnthropicProvider } from '../../../src/providers/anthropic.js';
import { anthropicEvents, sse } from '../../support/anthropic-wire.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { FAST_RETRY, READ_TOOL, anthropic, kindsOf, run, textOf } from './vendors.js';

const CONVERSATION: ModelRequest = {
  system: 'You are Keel.',
  tools: [READ_TOOL, { ...READ_TOOL, name: 'write_note' }],
  messages: [
    { role: 'user', text: 'Look at these.', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] },
    {
      role: 'assistant',
      text: 'Reading both.',
      toolCalls: [
        { intentId: 'k1', providerRef: 'toolu_A', tool: 'read_note', input: { path: 'a' } },
        { intentId: 'k2', providerRef: 'toolu_B', tool: 'read_note', input: { path: 'b' } },
      ],
    },
    { role: 'tool_result', intentId: 'k1', providerRef: 'toolu_A', tool: 'read_note', content: 'alpha', isError: false },
    { role: 'tool_result', intentId: 'k2', providerRef: 'toolu_B', tool: 'read_note', content: 'no such file', isError: true },
    { role: 'assistant', text: 'One failed.', toolCalls: [] },
    { role: 'user', text: 'Go on.' },
  ],
};

describe('anthropic provider: wire specifics', function () {
  this.timeout(10_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  it('skips ping events wherever they come', async () => {
    server = await startModelServer(conversation([{ text: ['a', 'b', 'c'], pings: true }]));
    const events = await run(anthropic.provider(server));
    assert.deepEqual(kindsOf(events), ['text_delta', 'usage', 'final']);
    assert.equal(textOf(events), 'abc');
  });

  it('streams thinking as reasoning deltas', async () => {
    server = await startModelServer(conversation([{ reasoning: ['Let me ', 'think.'], text: ['Done.'] }]));
    const events = await run(anthropic.provider(server));
    assert.deepEqual(kindsOf(events), ['reasoning_delta', 'text_delta', 'reasoning', 'usage', 'final']);
    assert.equal(events.map((e) => (e.type === 'reasoning_delta' ? e.text : '')).join(''), 'Let me think.');
    assert.equal(textOf(events), 'Done.');
    const kept = events.find((e) => e.type === 'reasoning');
    assert.ok(kept?.type === 'reasoning');
    assert.equal(kept.reasoning.format, 'anthropic');
    const [block, ...more] = kept.reasoning.blocks;
    assert.equal(more.length, 0);
    assert.ok(block?.type === 'text' && block.text === 'Let me think.' && /^sig-/.test(block.signature ?? ''), JSON.stringify(block));
  });

  it('takes usage from the end of the stream, with cache reads and writes', async () => {
    const events = anthropicEvents({ text: ['hi'], usage: { input: 50, output: 7, cacheRead: 9000, cacheWrite: 300 } });
    // message_start says nothing useful yet: all the counts arrive in message_delta.
    const start = events[0]!.data as { message: { usage: Record<string, number> } };
    start.message.usage = { input_tokens: 0, output_tokens: 0 };
    server = await startModelServer([{ type: 'stream', body: sse(events) }]);
    const usage = (await run(anthropic.provider(server))).find((e) => e.type === 'usage');
    assert.ok(usage?.type === 'usage');
    assert.deepEqual(
      [usage.usage.inputTokens, usage.usage.outputTokens, usage.usage.cacheReadTokens, usage.usage.cacheWriteTokens],
      [50, 7, 9000, 300],
    );
    // claude-haiku-4-5: $1 in, $5 out, $0.10 cache read, $1.25 cache write per million.
    assert.ok(Math.abs(usage.usage.costUsd! - (50 * 1 + 7 * 5 + 9000 * 0.1 + 300 * 1.25) / 1e6) < 1e-12);
  });

  it('sends tool results grouped in one user message under the tool_use ids, with images', async () => {
    server = await startModelServer(conversation([{ text: ['ok'] }]));
    await run(anthropic.provider(server), CONVERSATION);
    const body = server.requests[0]!.body;
    assert.deepEqual(
      body.messages.map((m: { role: string }) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user'],
    );
    const [, assistant, results] = body.messages;
    assert.deepEqual(
      assistant.content.filter((b: { type: string }) => b.type === 'tool_use').map((b: { id: string; input: unknown }) => [b.id, b.input]),
      [
        ['toolu_A', { path: 'a' }],
        ['toolu_B', { path: 'b' }],
      ],
    );
    assert.deepEqual(
      results.content.map((b: { type: string; tool_use_id: string; is_error?: boolean }) => [b.type, b.tool_use_id, b.is_error ?? false]),
      [
        ['tool_result', 'toolu_A', false],
        ['tool_result', 'toolu_B', true],
      ],
    );
    const image = body.messages[0].content[0];
    assert.deepEqual(image, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
    assert.equal(body.tools[0].input_schema.$schema, undefined);
    assert.equal(body.stream, true);
    assert.ok(body.max_tokens > 0);
  });

  it('marks cache breakpoints at the end of the stable prefix, the newest and the previous user message, none on tools or system', async () => {
    server = await startModelServer(conversation([{ text: ['ok'] }]));
    const folded: ModelRequest = {
      ...CONVERSATION,
      messages: [CONVERSATION.messages[0]!, { role: 'user', text: 'Steps 1–3 (folded): read a and b.' }, ...CONVERSATION.messages.slice(1)],
      stablePrefix: 2,
    };
    await run(anthropic.provider(server), folded);
    const body = server.requests[0]!.body;
    const marked = JSON.stringify(body).split('"cache_control"').length - 1;
    assert.equal(marked, 3);
    assert.equal(body.system.at(-1).cache_control, undefined);
    assert.ok(
      body.tools.every((t: { cache_control?: unknown }) => t.cache_control === undefined),
      'no breakpoint on the tool list',
    );
    const first = body.messages[0].content;
    assert.deepEqual(
      first.map((b: { type: string }) => b.type),
      ['image', 'text', 'text'],
      'the goal (image + text) and the notes travel in the first user message',
    );
    assert.equal(first[1].cache_control, undefined, 'the goal itself is not the end of the prefix');
    assert.deepEqual(first[2].cache_control, { type: 'ephemeral' }, 'the end of the stable prefix: the notes block');
    assert.deepEqual(body.messages.at(-1).content.at(-1).cache_control, { type: 'ephemeral' });
    assert.deepEqual(body.messages[2].content.at(-1).cache_control, { type: 'ephemeral' }, 'the previous user message');
  });

  it('without a fold the stable prefix is the goal', async () => {
    server = await startModelServer(conversation([{ text: ['ok'] }]));
    await run(anthropic.provider(server), { ...CONVERSATION, stablePrefix: 1 });
    const body = server.requests[0]!.body;
    assert.deepEqual(body.messages[0].content.at(-1).cache_control, { type: 'ephemeral' });
    assert.equal(JSON.stringify(body).split('"cache_control"').length - 1, 3);
  });

  it('returns thinking blocks, signature included, with the tool results they led to', async () => {
    server = await startModelServer(
      conversation([
        { reasoning: ['Need ', 'the file.'], toolCalls: [{ id: 'toolu_T', name: 'read_note', input: { path: 'a' } }] },
        { text: ['ok'] },
      ]),
    );
    const provider = createAnthropicProvider({
      baseURL: server.anthropicBaseURL,
      apiKey: 'k',
      model: 'claude-haiku-4-5',
      reasoning: 2048,
      retry: FAST_RETRY,
    });
    const first = await run(provider);
    const kept = first.find((e) => e.type === 'reasoning');
    assert.ok(kept?.type === 'reasoning');
    await run(provider, {
      system: '',
      tools: [READ_TOOL],
      messages: [
        { role: 'user', text: 'read a' },
        {
          role: 'assistant',
          text: '',
          toolCalls: [{ intentId: 'k', providerRef: 'toolu_T', tool: 'read_note', input: { path: 'a' } }],
          reasoning: kept.reasoning,
        },
        { role: 'tool_result', intentId: 'k', providerRef: 'toolu_T', tool: 'read_note', content: 'alpha', isError: false },
      ],
    });
    const second = server.requests[1]!.body;
    assert.deepEqual(second.thinking, { type: 'enabled', budget_tokens: 2048 });
    const [thinking, toolUse] = second.messages[1].content;
    assert.equal(thinking.type, 'thinking');
    assert.equal(thinking.thinking, 'Need the file.');
    assert.match(thinking.signature, /^sig-/);
    assert.equal(toolUse.id, 'toolu_T');
  });
});
