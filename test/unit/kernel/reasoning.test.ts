// A turn's reasoning is part of the conversation: the provider's `reasoning` event is logged with
// the turn, folded into its assistant message, projected onto the next request's assistant
// message (so the adapter can send it back), survives a replay of the log, and is weighed by the
// token estimate that folding reads.
import assert from 'node:assert/strict';
import { replay, requestTokens, type ModelEvent, type Reasoning } from '../../../src/kernel/index.js';
import { recordedTurns } from '../../../src/providers/recorded.js';
import { textTurn } from '../../../src/providers/scripted.js';
import { drain, makeRuntime } from './helpers.js';

const REASONING: Reasoning = {
  format: 'anthropic',
  blocks: [
    { type: 'text', text: 'The note is in a.txt.', signature: 'sig-opaque==' },
    { type: 'encrypted', data: 'RUVEQUNURUQ=' },
  ],
};

function reasoningToolTurn(reasoning: Reasoning): ModelEvent[] {
  return [
    { type: 'reasoning_delta', text: 'The note is in a.txt.' },
    { type: 'tool_intent', providerRef: 'toolu_1', tool: 'read_note', input: { path: 'a.txt' } },
    { type: 'reasoning', reasoning },
    { type: 'usage', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    { type: 'final', stopReason: 'tool_intent' },
  ];
}

describe('kernel: a turn keeps its reasoning', () => {
  it('logs it, keeps it on the assistant message, and projects it onto the next request', async () => {
    const { runtime, provider } = makeRuntime([reasoningToolTurn(REASONING), textTurn('alpha it is')]);
    await drain(runtime.send('what does a.txt say?'));
    const logged = runtime.getEvents().filter((e) => e.type === 'model_reasoning');
    assert.equal(logged.length, 1);
    assert.deepEqual(logged[0]!.type === 'model_reasoning' && logged[0]!.reasoning, REASONING);
    const assistant = runtime.getState().messages.find((m) => m.type === 'assistant');
    assert.deepEqual(assistant?.type === 'assistant' && assistant.reasoningBlocks, REASONING);
    const second = provider.requests[1]!;
    const sent = second.messages.find((m) => m.role === 'assistant');
    assert.deepEqual(sent?.role === 'assistant' && sent.reasoning, REASONING, 'the next request carries the turn’s reasoning');
    const last = provider.requests[1]!.messages.at(-1)!;
    assert.equal(last.role, 'tool_result');
  });

  it('a replayed log gives the same reasoning back (a resumed task can still send it)', async () => {
    const { runtime } = makeRuntime([reasoningToolTurn(REASONING), textTurn('done')]);
    await drain(runtime.send('go'));
    const state = replay(runtime.getEvents());
    const assistant = state.messages.find((m) => m.type === 'assistant');
    assert.deepEqual(assistant?.type === 'assistant' && assistant.reasoningBlocks, REASONING);
  });

  it('keel replay plays the recorded reasoning back with its turn', async () => {
    const { runtime } = makeRuntime([reasoningToolTurn(REASONING), textTurn('done')]);
    await drain(runtime.send('go'));
    const [first] = recordedTurns(runtime.getEvents());
    assert.deepEqual(
      first?.find((e) => e.type === 'reasoning'),
      { type: 'reasoning', reasoning: REASONING },
    );
  });

  it('a retried turn forgets the reasoning of the attempt it abandoned', async () => {
    const abandoned: Reasoning = { format: 'anthropic', blocks: [{ type: 'text', text: 'stale', signature: 's1' }] };
    const error = { kind: 'network' as const, message: 'cut', retryable: true };
    const { runtime } = makeRuntime([
      [
        { type: 'reasoning', reasoning: abandoned },
        { type: 'retry', attempt: 1, delayMs: 0, error },
        { type: 'text_delta', text: 'ok' },
        { type: 'final', stopReason: 'stop' },
      ],
    ]);
    await drain(runtime.send('go'));
    const assistant = runtime.getState().messages.find((m) => m.type === 'assistant');
    assert.equal(assistant?.type === 'assistant' && assistant.reasoningBlocks, undefined);
  });

  it('the token estimate folding reads counts the reasoning sent back', async () => {
    const long: Reasoning = { format: 'reasoning_content', blocks: [{ type: 'text', text: 'x'.repeat(40_000) }] };
    const { runtime, provider } = makeRuntime([reasoningToolTurn(long), textTurn('done')]);
    await drain(runtime.send('go'));
    const withReasoning = provider.requests[1]!;
    const without = {
      ...withReasoning,
      messages: withReasoning.messages.map((m) => (m.role === 'assistant' ? { role: m.role, text: m.text, toolCalls: m.toolCalls } : m)),
    };
    assert.ok(requestTokens(withReasoning) - requestTokens(without) >= 9_000, 'about 10,000 tokens of reasoning are counted');
  });
});
