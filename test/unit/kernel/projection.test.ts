import assert from 'node:assert/strict';
import { fitToBudget, SHORTENED_OUTPUT_CHARS, type ModelMessage } from '../../../src/kernel/index.js';

const big = (n: number) => 'x'.repeat(n);
const user = (text: string): ModelMessage => ({ role: 'user', text });
const call = (id: string): ModelMessage => ({
  role: 'assistant',
  text: '',
  toolCalls: [{ intentId: id, providerRef: `p${id}`, tool: 'read_file', input: { path: id } }],
});
const result = (id: string, content: string): ModelMessage => ({
  role: 'tool_result',
  intentId: id,
  providerRef: `p${id}`,
  tool: 'read_file',
  content,
  isError: false,
});

describe('context projection budget', () => {
  const conversation = [
    user('fix it'),
    call('1'),
    result('1', big(40_000)),
    call('2'),
    result('2', big(40_000)),
    user('and the docs'),
    call('3'),
    result('3', big(8_000)),
  ];

  it('leaves a request that fits untouched', () => {
    assert.deepEqual(fitToBudget(conversation, 1_000_000), conversation);
  });

  it('shortens old tool outputs first, keeping the latest step whole', () => {
    const fitted = fitToBudget(conversation, 10_000);
    assert.equal(fitted.length, conversation.length, 'nothing dropped when shortening is enough');
    const r1 = fitted[2] as Extract<ModelMessage, { role: 'tool_result' }>;
    assert.ok(r1.content.length <= SHORTENED_OUTPUT_CHARS + 10 && r1.content.includes('cut by Keel'));
    const r3 = fitted[7] as Extract<ModelMessage, { role: 'tool_result' }>;
    assert.equal(r3.content.length, 8_000, 'the latest output is kept');
  });

  it('drops nothing and never touches the goal: folding keeps history small, this is only the last resort', () => {
    const many: ModelMessage[] = [user('start')];
    for (let i = 0; i < 20; i++) many.push(call(String(i)), result(String(i), big(4_000)));
    const fitted = fitToBudget(many, 6_000);
    assert.equal(fitted.length, many.length, 'every message is still there');
    assert.deepEqual(fitted[0], user('start'), 'the goal is byte-identical');
    const kept = fitted.filter((m) => m.role === 'tool_result' && m.content.length === 4_000).length;
    assert.ok(kept >= 1 && kept < 20, `the newest outputs stay whole while they fit (${kept})`);
    const last = fitted.at(-1) as Extract<ModelMessage, { role: 'tool_result' }>;
    assert.equal(last.content.length, 4_000, 'the oldest are shortened first');
  });
});
