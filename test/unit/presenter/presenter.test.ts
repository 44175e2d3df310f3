import assert from 'node:assert/strict';
import type { HostMessage, SessionSnapshot, TranscriptDelta, TranscriptItem } from '../../../src/protocol/index.js';
import { HostMessageSchema } from '../../../src/protocol/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { EventFactory } from './events.js';
import { FakeClock } from './fake-clock.js';

function setup() {
  const clock = new FakeClock();
  const posts: HostMessage[] = [];
  const f = new EventFactory();
  const presenter = new Presenter({ clock, post: (m) => posts.push(m), kernel: () => f.state, contextWindow: 200_000 });
  const deltas = () => posts.filter((p): p is TranscriptDelta => p.type === 'transcript/delta');
  const ops = () => deltas().flatMap((d) => d.ops);
  return { clock, posts, presenter, f, deltas, ops };
}

describe('presenter: kernel outputs to deltas', () => {
  it('flushes the first text of a turn at once, then coalesces the rest per frame', () => {
    const { clock, presenter, f, deltas, ops } = setup();
    presenter.handle(f.out({ type: 'turn_started', turn: 1 }));
    presenter.handle(f.out({ type: 'text_delta', text: 'Hel' }));
    assert.equal(deltas().length, 1, 'first text posted without waiting');
    for (const t of ['lo', ', ', 'world']) presenter.handle(f.out({ type: 'text_delta', text: t }));
    assert.equal(deltas().length, 1);
    clock.advance(16);
    assert.equal(deltas().length, 2);
    assert.deepEqual(deltas()[1]!.ops, [{ type: 'text/append', id: 'a2', text: 'lo, world' }]);
    assert.ok(ops().some((o) => o.type === 'item/add' && o.item.kind === 'assistant' && o.item.text === 'Hel'));
  });

  it('flushes approval requests, errors and the end of a run at once', () => {
    const { presenter, f, deltas, ops } = setup();
    presenter.handle(f.out({ type: 'intent_proposed', intent: f.intent('i1') }));
    assert.equal(deltas().length, 0, 'a proposal alone waits for the frame');
    presenter.handle(f.out({ type: 'approval_requested', intentId: 'i1', reason: 'runs a command' }));
    assert.equal(deltas().length, 1);
    presenter.handle(f.out({ type: 'run_failed', error: { kind: 'auth', message: 'Invalid API key' } }));
    assert.equal(deltas().length, 2);
    const notice = ops().find((o) => o.type === 'item/add' && o.item.kind === 'notice');
    assert.deepEqual(notice && notice.type === 'item/add' ? notice.item : undefined, {
      kind: 'notice',
      id: 'n3',
      level: 'error',
      text: 'Invalid API key',
      retry: true,
      action: { label: 'Set API Key', message: 'apiKey/set' },
    });
    presenter.handle(f.out({ type: 'run_finished', reason: 'completed' }));
    assert.equal(deltas().length, 3);
  });

  it('follows an intent through approval, execution with live output, and its result', () => {
    const { clock, presenter, f, ops } = setup();
    presenter.handle(f.out({ type: 'intent_proposed', intent: f.intent('i1') }));
    presenter.handle(f.out({ type: 'approval_requested', intentId: 'i1', reason: 'runs a command' }));
    presenter.handle(f.out({ type: 'intent_approved', intentId: 'i1', scope: 'task', auto: false }));
    presenter.handle(f.out({ type: 'intent_started', intentId: 'i1' }));
    presenter.handle({ kind: 'tool_output', intentId: 'i1', chunk: 'PASS a\n' });
    presenter.handle({ kind: 'tool_output', intentId: 'i1', chunk: 'PASS b\n' });
    f.time += 2500;
    presenter.handle(f.out({ type: 'observation', observation: { intentId: 'i1', ok: true, content: 'all good', summary: '2 passed' } }));
    clock.advance(16);
    const snap = presenter.snapshot();
    const card = snap.items.find((i) => i.id === 'i1');
    assert.deepEqual(card, {
      kind: 'intent',
      id: 'i1',
      tool: 'run_command',
      summary: 'npm test',
      command: 'npm test',
      risk: 'execute',
      status: 'done',
      approvalReason: 'runs a command',
      approvedScope: 'task',
      autoApproved: false,
      startedAt: 1_000_000,
      progressTail: 'PASS a\nPASS b\n',
      result: { ok: true, summary: '2 passed', detail: 'all good' },
      elapsedMs: 2500,
    });
    assert.deepEqual(
      ops().filter((o) => o.type === 'intent/progress'),
      [{ type: 'intent/progress', id: 'i1', chunk: 'PASS a\nPASS b\n' }],
    );
    assert.deepEqual(
      ops()
        .filter((o) => o.type === 'status/set')
        .map((o) => o.type === 'status/set' && o.status),
      ['waiting_for_approval', 'running', 'executing', 'running'],
    );
  });

  it("keeps a retried turn's partial text, marked as cut, and shows the retry notice", () => {
    const { presenter, f, ops } = setup();
    presenter.handle(f.out({ type: 'turn_started', turn: 1 }));
    presenter.handle(f.out({ type: 'text_delta', text: 'partial' }));
    presenter.handle(
      f.out({ type: 'turn_retry', attempt: 1, delayMs: 4000, error: { kind: 'overloaded', message: 'Overloaded', retryable: true } }),
    );
    assert.deepEqual(ops().slice(-2), [
      { type: 'item/replace', item: { kind: 'assistant', id: 'a2', text: 'partial', done: true, cut: true } },
      { type: 'retry/set', retry: { attempt: 1, delayMs: 4000, message: 'Overloaded' } },
    ]);
    presenter.handle(f.out({ type: 'turn_started', turn: 1 }));
    presenter.handle(f.out({ type: 'text_delta', text: 'again' }));
    assert.deepEqual(
      presenter.snapshot().items.map((i) => [i.id, i.kind === 'assistant' && i.text, i.kind === 'assistant' && !!i.cut]),
      [
        ['a2', 'partial', true],
        ['a5', 'again', false],
      ],
      'the cut text stays; the retried turn streams into a new item',
    );
    assert.equal(presenter.snapshot().retry, null);
  });

  it("meters context from the last turn's usage (cache included) and sums cost", () => {
    const { presenter, f } = setup();
    presenter.handle(f.out({ type: 'user_message', text: 'x'.repeat(400) }));
    assert.equal(presenter.snapshot().meter.usedTokens, 100, 'estimated before any usage');
    presenter.handle(
      f.out({ type: 'usage', usage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 4000, cacheWriteTokens: 500, costUsd: 0.01 } }),
    );
    presenter.handle(
      f.out({ type: 'usage', usage: { inputTokens: 2000, outputTokens: 80, cacheReadTokens: 5000, cacheWriteTokens: 0, costUsd: 0.02 } }),
    );
    const meter = presenter.snapshot().meter;
    assert.equal(meter.usedTokens, 7000);
    assert.equal(meter.windowTokens, 200_000);
    assert.ok(Math.abs(meter.costUsd! - 0.03) < 1e-9);
    assert.equal(meter.split.history, 100);
    assert.deepEqual(meter.tokens, { input: 3000, cacheRead: 9000, cacheWrite: 500, output: 130 });
    assert.equal(meter.cost, undefined, 'no price given: no cost per kind');
  });

  it('splits the meter from a model request: system + tools, notes + ledger, history, output reserve', () => {
    const { presenter } = setup();
    const tools = [{ name: 'read_file', description: 'd'.repeat(30), inputSchema: {} }];
    presenter.setRequest({
      system: 's'.repeat(800),
      tools,
      messages: [
        { role: 'user', text: 'u'.repeat(40) },
        { role: 'user', text: 'n'.repeat(400) },
        { role: 'tool_result', intentId: 'i', providerRef: 'p', tool: 't', content: 'r'.repeat(4000), isError: false },
      ],
      stablePrefix: 2,
      maxOutputTokens: 8000,
    });
    const systemTools = 200 + Math.ceil(JSON.stringify(tools).length / 4);
    assert.deepEqual(presenter.snapshot().meter.split, { systemTools, notes: 104, history: 14 + 1010, outputReserve: 8000 });
  });

  it('counts a fold: a collapsible item with its note, and the note request in tokens and cost', () => {
    const { presenter, f } = setup();
    presenter.setModel({ contextWindow: 200_000, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } });
    presenter.handle(
      f.out({ type: 'usage', usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0045 } }),
    );
    presenter.handle(
      f.out({
        type: 'context_folded',
        fromSeq: 2,
        toSeq: 40,
        steps: { first: 1, last: 6 },
        note: '- step 1: read_file `a.ts` → ok',
        source: 'fallback',
        reason: 'high_water',
        tokensBefore: 140_000,
        tokensAfter: 80_000,
        usage: { inputTokens: 0, outputTokens: 200, cacheReadTokens: 100_000, cacheWriteTokens: 0, costUsd: 0.033 },
      }),
    );
    const snap = presenter.snapshot();
    const item = snap.items.at(-1)!;
    assert.equal(item.kind, 'fold');
    assert.deepEqual(item.kind === 'fold' && [item.firstStep, item.lastStep, item.note, item.requested], [
      1,
      6,
      '- step 1: read_file `a.ts` → ok',
      false,
    ]);
    assert.equal(snap.meter.folds, 1);
    assert.equal(
      snap.meter.usedTokens,
      snap.meter.split.systemTools + snap.meter.split.notes + snap.meter.split.history,
      'after a fold the estimate, not the last turn',
    );
    assert.deepEqual(snap.meter.tokens, { input: 1000, cacheRead: 100_000, cacheWrite: 0, output: 300 });
    assert.ok(Math.abs(snap.meter.cost!.cacheRead - 0.03) < 1e-9 && Math.abs(snap.meter.costUsd! - 0.0375) < 1e-9);
  });
});

describe('presenter: snapshots', () => {
  it('carries the last posted seq so the webview continues at seq + 1', () => {
    const { clock, posts, presenter, f } = setup();
    presenter.handle(f.out({ type: 'user_message', text: 'hi' }));
    presenter.handle(f.out({ type: 'turn_started', turn: 1 }));
    presenter.handle(f.out({ type: 'text_delta', text: 'a' }));
    presenter.handle(f.out({ type: 'text_delta', text: 'b' }));
    presenter.postSnapshot();
    clock.advance(100);
    const snap = posts.at(-1) as SessionSnapshot;
    assert.equal(snap.type, 'session/snapshot');
    assert.equal(snap.seq, 2);
    assert.equal('items' in snap, false, 'only the protocol message is posted');
    const items = JSON.parse(snap.itemsJson) as TranscriptItem[];
    assert.deepEqual(
      items.map((i) => [i.kind, 'text' in i ? i.text : '']),
      [
        ['user', 'hi'],
        ['assistant', 'ab'],
      ],
    );
    presenter.handle(f.out({ type: 'text_delta', text: 'c' }));
    clock.advance(16);
    assert.equal((posts.at(-1) as TranscriptDelta).seq, 3);
    for (const p of posts) assert.ok(HostMessageSchema.safeParse(p).success, JSON.stringify(p));
  });

  it('loads a task from its log; an interrupted run is resumable and asks nothing until resumed', () => {
    const { posts, presenter, f } = setup();
    const events = [
      ...f.exchange(1),
      f.event({ type: 'run_started', provider: 'p', model: 'm' }),
      f.event({ type: 'intent_proposed', intent: f.intent('i9') }),
      f.event({ type: 'approval_requested', intentId: 'i9', reason: 'asks' }),
    ];
    presenter.load(events, 'task-1');
    assert.equal(posts.length, 0, 'loading posts nothing by itself');
    const snap = presenter.snapshot();
    assert.equal(snap.taskId, 'task-1');
    assert.equal(snap.status, 'idle');
    assert.equal(snap.hints.canResume, true);
    assert.deepEqual(snap.pendingIntentIds, []);
    presenter.handle(f.out({ type: 'run_resumed' }));
    presenter.handle(f.out({ type: 'approval_requested', intentId: 'i9', reason: 'asks' }));
    assert.equal(presenter.snapshot().hints.canResume, false);
    assert.deepEqual(presenter.snapshot().pendingIntentIds, ['i9']);
  });

  it('shows the rules files a task used, and clears them for another task', () => {
    const { presenter, f } = setup();
    presenter.load([...f.exchange(1), f.event({ type: 'rules_used', paths: ['AGENTS.md', '.keel/rules/style.md'] })], 'task-1');
    const snap = presenter.snapshot();
    assert.deepEqual(snap.hints.rules, ['AGENTS.md', '.keel/rules/style.md']);
    assert.ok(HostMessageSchema.safeParse(snap).success);
    presenter.load(f.exchange(2), 'task-2');
    assert.equal(presenter.snapshot().hints.rules, undefined);
  });

  it('pins the task’s to-do list and shows its mode, from the log on reload, and clears both for another task', () => {
    const { presenter, f } = setup();
    const todos = [
      { id: '1', text: 'Read\u202e it', status: 'done' as const },
      { id: '2', text: 'Fix it', status: 'in_progress' as const },
    ];
    const write = { ...f.intent('i1'), tool: 'todo_write', risk: 'read' as const };
    const observation = { intentId: 'i1', ok: true, content: 'list', facts: { todos } };
    const framed = { type: 'observation' as const, observation: { ...observation, facts: { todos: [] } }, frame: 'child' };
    presenter.load(
      [
        f.event({ type: 'mode_set', mode: 'plan' }),
        ...f.exchange(1),
        f.event({ type: 'intent_proposed', intent: write }),
        f.event({ type: 'observation', observation }),
        f.event(framed),
      ],
      'task-1',
    );
    const snap = presenter.snapshot();
    assert.equal(snap.hints.mode, 'plan');
    assert.deepEqual(
      snap.hints.todos?.map((t) => t.status),
      ['done', 'in_progress'],
    );
    assert.ok(!snap.hints.todos![0]!.text.includes('\u202e'), 'an invisible character is shown, not obeyed');
    assert.ok(HostMessageSchema.safeParse(snap).success);
    presenter.load(f.exchange(2), 'task-2');
    assert.equal(presenter.snapshot().hints.todos, undefined);
    assert.equal(presenter.snapshot().hints.mode, undefined);
  });
});

describe('presenter: delta size', () => {
  function meanBytesPerDelta(messages: number): number {
    const { clock, posts, presenter, f } = setup();
    const events = [];
    for (let i = 0; i < messages / 2; i++) events.push(...f.exchange(i));
    presenter.load(events);
    presenter.postSnapshot();
    posts.length = 0;
    presenter.handle(f.out({ type: 'turn_started', turn: 1 }));
    const count = 500;
    for (let i = 0; i < count; i++) {
      presenter.handle(f.out({ type: 'text_delta', text: 'tok ' }));
      clock.advance(4);
    }
    clock.advance(100);
    const bytes = posts.reduce((sum, p) => sum + JSON.stringify(p).length, 0);
    return bytes / count;
  }

  it("does not grow with the transcript's length", () => {
    const small = meanBytesPerDelta(100);
    const large = meanBytesPerDelta(10_000);
    assert.ok(large <= small * 1.1, `${small} vs ${large}`);
    assert.ok(large < 100, `${large} bytes per delta`);
  });
});
