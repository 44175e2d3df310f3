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

  it('drops whole old steps, never separating a call from its result, and keeps user messages', () => {
    const many: ModelMessage[] = [user('start')];
    for (let i = 0; i < 50; i++) many.push(call(String(i)), result(String(i), big(500)));
    many.push(user('latest question'));
    const fitted = fitToBudget(many, 3_000);
    const users = fitted.filter((m) => m.role === 'user');
    assert.equal(users.length, 2);
    assert.ok(users[1]!.role === 'user' && users[1]!.text === 'latest question');
    const calls = new Set(fitted.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((c) => c.intentId) : [])));
    const results = new Set(fitted.flatMap((m) => (m.role === 'tool_result' ? [m.intentId] : [])));
    assert.deepEqual([...calls].sort(), [...results].sort(), 'every kept call keeps its result');
    assert.ok(calls.has('49'), 'the latest step is kept');
    assert.ok(!calls.has('0'), 'the oldest step went first');
    const total = fitted.reduce((n, m) => n + JSON.stringify(m).length / 4, 0);
    assert.ok(total < 3_500, `fits roughly: ${total}`);
  });
});
