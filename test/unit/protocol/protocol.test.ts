import assert from 'node:assert/strict';
import { parseHostMessage, parseWebviewMessage, type HostMessage, type WebviewMessage } from '../../../src/protocol/index.js';
import { config as zodConfig, locales as zodLocales } from 'zod';

const validHost: HostMessage[] = [
  {
    type: 'session/snapshot',
    seq: 3,
    hostNow: 1,
    taskId: 't1',
    itemsJson: JSON.stringify([
      { kind: 'user', id: 'u1', text: 'hi' },
      { kind: 'assistant', id: 'a2', text: '**x**', done: true },
      { kind: 'reasoning', id: 'r3', text: 'hmm' },
      {
        kind: 'intent',
        id: 'i1',
        tool: 'edit_file',
        summary: 'a.ts',
        risk: 'write',
        status: 'awaiting_approval',
        approvalReason: 'writes',
      },
      { kind: 'notice', id: 'n1', level: 'error', text: 'no key', action: { label: 'Set API Key', message: 'apiKey/set' } },
      {
        kind: 'fold',
        id: 'f9',
        firstStep: 1,
        lastStep: 4,
        note: '- step 1: read_file a.ts',
        source: 'fallback',
        requested: false,
        tokensBefore: 90,
        tokensAfter: 40,
      },
    ]),
    status: 'waiting_for_approval',
    retry: null,
    pendingIntentIds: ['i1'],
    meter: {
      usedTokens: 10,
      windowTokens: 100,
      costUsd: 0.1,
      split: { systemTools: 3, notes: 1, history: 6, outputReserve: 20 },
      tokens: { input: 5, cacheRead: 4, cacheWrite: 1, output: 2 },
      cost: { input: 0.05, cacheRead: 0.01, cacheWrite: 0.02, output: 0.02 },
      folds: 1,
    },
    hints: { noApiKey: true, restricted: false, canResume: false },
    tasks: { tasks: [{ id: 't1', title: 'x', updatedAt: 1, status: 'idle' }], currentTaskId: 't1' },
  },
  {
    type: 'transcript/delta',
    seq: 4,
    ops: [
      { type: 'item/add', item: { kind: 'user', id: 'u5', text: 'q' } },
      { type: 'item/remove', id: 'a2' },
      { type: 'text/append', id: 'a2', text: 'more' },
      { type: 'text/done', id: 'a2' },
      { type: 'intent/update', id: 'i1', patch: { status: 'done', result: { ok: true, summary: 'ok' }, elapsedMs: 3 } },
      { type: 'intent/progress', id: 'i1', chunk: 'out', replace: true },
      { type: 'status/set', status: 'running' },
      { type: 'retry/set', retry: { attempt: 1, delayMs: 1000, message: 'busy' } },
      {
        type: 'meter/set',
        meter: {
          usedTokens: 1,
          windowTokens: 0,
          split: { systemTools: 0, notes: 0, history: 1, outputReserve: 0 },
          tokens: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
          folds: 0,
        },
      },
      { type: 'hints/set', hints: { noApiKey: false, restricted: true, canResume: true } },
    ],
  },
  { type: 'tasks/list', tasks: [], currentTaskId: 'x' },
];

const validWebview: WebviewMessage[] = [
  { type: 'webview/ready', lastSeq: 4 },
  { type: 'webview/ready' },
  { type: 'task/send', text: 'go' },
  { type: 'task/stop' },
  { type: 'task/new' },
  { type: 'task/open', id: 't1' },
  { type: 'task/delete', id: 't1' },
  { type: 'task/resume' },
  { type: 'context/fold' },
  { type: 'intent/approve', intentId: 'i1', scope: 'workspace' },
  { type: 'intent/reject', intentId: 'i1', reason: 'no' },
  { type: 'intent/reject', intentId: 'i1' },
  { type: 'intent/focus', intentId: 'i1' },
  { type: 'apiKey/set' },
  { type: 'log/show' },
  { type: 'link/open', href: 'https://example.com' },
  { type: 'clipboard/copy', text: 'x' },
  { type: 'rules/open', path: 'AGENTS.md' },
];

describe('protocol', () => {
  it('parses every valid message in both directions unchanged', () => {
    const logs: string[] = [];
    for (const m of validHost)
      assert.deepEqual(
        parseHostMessage(m, (l) => logs.push(l)),
        m,
      );
    for (const m of validWebview)
      assert.deepEqual(
        parseWebviewMessage(m, (l) => logs.push(l)),
        m,
      );
    assert.deepEqual(logs, []);
  });

  it('drops unknown and malformed messages with a log line instead of throwing', () => {
    const bad: unknown[] = [
      undefined,
      null,
      42,
      'task/send',
      [],
      {},
      { type: 'task/explode' },
      { type: 'task/send', text: '' },
      { type: 'task/send', text: 5 },
      { type: 'intent/approve', intentId: 'i1', scope: 'forever' },
      { type: 'intent/approve', scope: 'once' },
    ];
    const logs: string[] = [];
    for (const m of bad)
      assert.equal(
        parseWebviewMessage(m, (l) => logs.push(l)),
        undefined,
      );
    assert.equal(logs.length, bad.length);
    assert.match(logs[6]!, /dropped webview→host message .*task\/explode/);

    const badHost: unknown[] = [
      { type: 'transcript/delta', seq: 1, ops: [{ type: 'text/append', id: 'a' }] },
      { type: 'transcript/delta', seq: 1, ops: [{ type: 'dom/innerHTML', html: '<img>' }] },
      { type: 'session/snapshot', seq: 0 },
      {
        type: 'transcript/delta',
        seq: 1,
        ops: [{ type: 'item/add', item: { kind: 'intent', id: 'i', tool: 't', summary: '', risk: 'admin', status: 'done' } }],
      },
    ];
    const hostLogs: string[] = [];
    for (const m of badHost)
      assert.equal(
        parseHostMessage(m, (l) => hostLogs.push(l)),
        undefined,
      );
    assert.equal(hostLogs.length, badHost.length);
  });

  it('keeps log lines short for huge payloads and survives unserializable ones', () => {
    // With zod's English messages (set once any module loads the full zod, as the SDKs do), an
    // unknown type's message lists every message type.
    zodConfig(zodLocales.en());
    const logs: string[] = [];
    parseHostMessage({ type: 'nope', blob: 'x'.repeat(1_000_000) }, (l) => logs.push(l));
    const circular: Record<string, unknown> = { type: 'task/send' };
    circular.self = circular;
    parseWebviewMessage(circular, (l) => logs.push(l));
    assert.equal(logs.length, 2);
    assert.ok(
      logs.every((l) => l.length < 400),
      logs.map((l) => l.length).join(),
    );
  });
});
