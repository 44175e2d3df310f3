import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Registry, Runtime } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import type { HostMessage, SessionSnapshot } from '../../../src/protocol/index.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { HELD_ELSEWHERE, TaskLocks } from '../../../src/host/tasks/task-lock.js';
import { scratchDir } from '../../support/scratch.js';
import { fakeWriteTool } from '../../support/fake-write-tool.js';
import { until } from '../../support/until.js';

const writeTool = fakeWriteTool();

function world(dir: string, script: Script, keyMissing = false, locks?: TaskLocks) {
  const refused: string[] = [];
  const registry = new Registry();
  registry.addTool(writeTool);
  const tasks = new TaskStore({
    dir,
    logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: ({ events, store }) => new Runtime({ provider: new ScriptedProvider(script), registry, store, events }),
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const posted: HostMessage[] = [];
  const context = new Map<string, unknown>();
  const watched: string[] = [];
  const session: Session = new Session({
    tasks,
    post: (m) => posted.push(m),
    keyMissing: async () => keyMissing,
    trusted: () => false,
    model: () => ({ contextWindow: 1234, price: undefined }),
    focusIntent: async () => false,
    watch: (task) => {
      watched.push(task.id);
      return () => undefined;
    },
    setContext: (k, v) => context.set(k, v),
    log: { info() {}, warn() {}, error() {} },
    ...(locks ? { locks, refuse: (m: string) => refused.push(m) } : {}),
  });
  return { tasks, session, posted, context, watched, refused };
}

const snapshots = (posted: HostMessage[]) => posted.filter((m): m is SessionSnapshot => m.type === 'session/snapshot');

/** Polls `check`; the deadline is a generous hang guard, not a timing claim. */
describe('host/session', () => {
  it('answers webview/ready with a snapshot carrying hints, meter window and the task list', async () => {
    const dir = scratchDir('session');
    const w = world(dir, [textTurn('Hi!')], true);
    await w.tasks.init();
    const task = await w.session.send('Hello');
    await task.idle();
    w.posted.length = 0;
    await w.session.ready();
    const snap = snapshots(w.posted).at(-1)!;
    assert.equal(snap.taskId, task.id);
    assert.deepEqual(snap.hints, { noApiKey: true, restricted: true, canResume: false, commands: [], agents: [] });
    assert.equal(snap.meter.windowTokens, 1234);
    assert.deepEqual(
      snap.tasks.tasks.map((t) => [t.title, t.status]),
      [['Hello', 'completed']],
    );
    assert.deepEqual(
      (JSON.parse(snap.itemsJson) as { kind: string }[]).map((i) => i.kind),
      ['user', 'assistant'],
    );
    assert.equal(w.context.get('keel.running'), false);
  });

  it('after a reload shows the latest task, interrupted, and Resume asks the pending intent again', async () => {
    const dir = scratchDir('session');
    const first = world(dir, [toolTurn('write_file', { path: 'a.txt' })]);
    await first.tasks.init();
    const task = await first.session.send('write it');
    await until(() => task.getState().status === 'waiting_for_approval');
    assert.equal(first.context.get('keel.running'), true);
    await first.tasks.flush();

    const second = world(dir, [textTurn('Done.')]);
    await second.tasks.init();
    await second.session.ready();
    const snap = snapshots(second.posted).at(-1)!;
    assert.equal(snap.taskId, task.id);
    assert.equal(snap.hints.canResume, true);
    assert.deepEqual(second.watched, [task.id]);
    const reloaded = second.session.current!;
    const intentId = reloaded.getState().pendingIntentIds[0]!;
    await second.session.resume();
    await until(() => reloaded.getState().status === 'waiting_for_approval' && reloaded.busy);
    await second.session.approve(intentId, 'once');
    await reloaded.idle();
    assert.equal(reloaded.getState().status, 'completed');
    assert.equal(second.context.get('keel.running'), false);
  });

  it('a second window on the folder may not resume, approve or send to a task the first one runs', async () => {
    const dir = scratchDir('session-lock');
    const clock = { t: 1_700_000_000_000 };
    const lockFor = (pid: number) =>
      new TaskLocks({ dir, self: { pid, window: `w${pid}` }, staleMs: 30_000, now: () => clock.t, isAlive: () => true });
    const first = world(dir, [toolTurn('write_file', { path: 'a.txt' }), textTurn('Done.')], false, lockFor(1));
    await first.tasks.init();
    const task = await first.session.send('write it');
    await until(() => task.getState().status === 'waiting_for_approval');
    await first.tasks.flush();

    const second = world(dir, [textTurn('Done.')], false, lockFor(2));
    await second.tasks.init();
    await second.session.ready();
    const snap = snapshots(second.posted).at(-1)!;
    assert.equal(snap.hints.canResume, false, 'no Resume for a task another window runs');
    assert.deepEqual(
      snap.tasks.tasks.map((t) => t.elsewhere),
      [true],
      'the history shows it running elsewhere',
    );
    const shown = second.session.current!;
    const intentId = shown.getState().pendingIntentIds[0]!;
    await second.session.resume();
    await second.session.approve(intentId, 'once');
    await second.session.send('and this too');
    assert.deepEqual(second.refused, [HELD_ELSEWHERE, HELD_ELSEWHERE, HELD_ELSEWHERE]);
    assert.equal(shown.busy, false, 'the second window drove nothing');

    await first.session.approve(intentId, 'once');
    await task.idle();
    assert.equal(task.getState().status, 'completed');
    assert.deepEqual(first.refused, []);
    await until(() => existsSync(`${dir}/${task.id}.lock`) === false);
  });

  it('sends to a new task when the current one is busy, and deletes the current task', async () => {
    const dir = scratchDir('session');
    const w = world(dir, [toolTurn('write_file', { path: 'a.txt' })]);
    await w.tasks.init();
    const busy = await w.session.send('first');
    await until(() => busy.getState().status === 'waiting_for_approval');
    const other = await w.session.send('second');
    assert.notEqual(other.id, busy.id);
    assert.equal(w.session.current?.id, other.id);
    busy.runtime.cancel();
    await busy.idle();
    await w.session.deleteTask(other.id);
    assert.equal(w.session.current, undefined);
    assert.deepEqual(
      w.tasks.list().map((t) => t.id),
      [busy.id],
    );
    other.runtime.cancel();
  });
});

describe('host/session: Retry and the approval keys', () => {
  it('Retry after a failed run sends the last user message again and the run completes', async () => {
    const dir = scratchDir('session-retry');
    const w = world(dir, (_request, turn) =>
      turn === 0 ? [{ type: 'error', error: { kind: 'unknown', message: 'HTTP 500', retryable: false } }] : textTurn('Fixed.'),
    );
    await w.tasks.init();
    const task = await w.session.send('Fix the failing tests');
    await task.idle();
    assert.equal(task.getState().status, 'failed');
    await w.session.retry();
    await task.idle();
    assert.equal(task.getState().status, 'completed');
    const sent = task.getEvents().flatMap((e) => (e.type === 'user_message' ? [e.text] : []));
    assert.deepEqual(sent, ['Fix the failing tests', 'Fix the failing tests']);
  });

  it('names the oldest card waiting for approval (what the keys decide)', async () => {
    const dir = scratchDir('session-keys');
    const w = world(dir, [toolTurn('write_file', { path: 'a.txt' }), textTurn('done')]);
    await w.tasks.init();
    assert.equal(w.session.oldestPendingIntent(), undefined);
    const task = await w.session.send('write it');
    await until(() => task.getState().status === 'waiting_for_approval');
    const id = w.session.oldestPendingIntent();
    assert.equal(task.getState().intents[id!]?.status, 'awaiting_approval');
    w.session.approve(id!, 'once');
    await task.idle();
    assert.equal(w.session.oldestPendingIntent(), undefined);
  });
});

describe('host/session: edit and resend', () => {
  it('forks the task at an earlier message: the new task has what came before, the original is unchanged', async () => {
    const dir = scratchDir('session-fork');
    const w = world(dir, (_request, turn) => textTurn(`answer ${turn}`));
    await w.tasks.init();
    const original = await w.session.send('first question');
    await original.idle();
    await original.send('second question');
    await original.idle();
    const before = original.getEvents().length;
    const second = original.getEvents().find((e) => e.type === 'user_message' && e.text === 'second question')!;
    const fork = await w.session.fork(`u${second.seq}`, 'a better second question');
    assert.ok(fork && fork.id !== original.id);
    await fork.idle();
    const asked = (t: typeof original) => t.getEvents().flatMap((e) => (e.type === 'user_message' ? [e.text] : []));
    assert.deepEqual(asked(fork), ['first question', 'a better second question']);
    assert.deepEqual(asked(original), ['first question', 'second question']);
    assert.equal(original.getEvents().length, before, 'the original stays as it was');
    assert.equal(w.session.current?.id, fork.id, 'the fork is shown');
    assert.equal(w.tasks.list().length, 2, 'both are in the history');
  });

  it('ignores an id that is not a user message of the task shown', async () => {
    const dir = scratchDir('session-fork-bad');
    const w = world(dir, [textTurn('hi')]);
    await w.tasks.init();
    const task = await w.session.send('hello');
    await task.idle();
    assert.equal(await w.session.fork('u99999', 'x'), undefined);
    assert.equal(await w.session.fork('../../etc', 'x'), undefined);
    assert.equal(w.tasks.list().length, 1);
  });
});
