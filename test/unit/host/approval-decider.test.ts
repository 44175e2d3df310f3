// One approval decider (issue 24 item 4): the diff editor's route decides through the same call as
// the card and the keys, which claims the task's lock first — also for a task the view does not
// show (the diff of an edit stays open while the user switches tasks).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Registry, Runtime } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { HELD_ELSEWHERE, TaskLocks } from '../../../src/host/tasks/task-lock.js';
import { decideApproval } from '../../../src/compose/approval-decision.js';
import { scratchDir } from '../../support/scratch.js';
import { fakeWriteTool } from '../../support/fake-write-tool.js';
import { until } from '../../support/until.js';

const writeTool = fakeWriteTool('write_it');

function windowOn(dir: string, pid: number, script: Script) {
  const refused: string[] = [];
  const claims: string[] = [];
  const registry = new Registry();
  registry.addTool(writeTool);
  const locks = new TaskLocks({
    dir,
    self: { pid, window: `w${pid}` },
    staleMs: 30_000,
    now: () => 1_700_000_000_000,
    isAlive: () => true,
  });
  const countingLocks = {
    claim: (id: string) => {
      claims.push(id);
      return locks.claim(id);
    },
    release: (id: string) => locks.release(id),
    heldElsewhere: (id: string) => locks.heldElsewhere(id),
  };
  const tasks = new TaskStore({
    dir,
    logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: ({ events, store }) => new Runtime({ provider: new ScriptedProvider(script), registry, store, events }),
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const session: Session = new Session({
    tasks,
    post: () => undefined,
    keyMissing: async () => false,
    trusted: () => true,
    model: () => ({ contextWindow: 1000, price: undefined }),
    focusIntent: async () => false,
    watch: () => () => undefined,
    setContext: () => undefined,
    log: { info() {}, warn() {}, error() {} },
    locks: countingLocks,
    refuse: (m: string) => refused.push(m),
  });
  return { tasks, session, refused, claims };
}

describe('host: one approval decider', () => {
  it('a diff-route approval of a task that is not the shown one claims its lock (and is refused while another window runs it)', async () => {
    const dir = scratchDir('decider');
    const first = windowOn(dir, 1, [toolTurn('write_it', { path: 'a.txt' }), textTurn('Done.')]);
    await first.tasks.init();
    const task = await first.session.send('write it');
    await until(() => task.getState().status === 'waiting_for_approval');
    await first.tasks.flush();

    const second = windowOn(dir, 2, [textTurn('Done.')]);
    await second.tasks.init();
    await second.session.ready();
    const other = second.session.current!;
    assert.equal(other.id, task.id);
    const intentId = other.getState().pendingIntentIds[0]!;
    // The user moves to a new task; the edit's diff (of the first task) stays open and is approved there.
    await second.session.newTask();
    assert.notEqual(second.session.current?.id, task.id, 'the task is no longer the shown one');
    second.claims.length = 0;

    const decided = await second.session.decideApproval(other, intentId, { approve: true, scope: 'once' });
    assert.equal(decided, false);
    assert.deepEqual(second.claims, [task.id], 'the lock of the diff’s task was claimed');
    assert.deepEqual(second.refused, [HELD_ELSEWHERE]);
    assert.equal(other.getState().intents[intentId]?.status, 'awaiting_approval', 'nothing was approved in the second window');

    // The window that runs the task decides it through the same call, shown or not.
    await first.session.newTask();
    assert.equal(await first.session.decideApproval(task, intentId, { approve: true, scope: 'once' }), true);
    await task.idle();
    assert.equal(task.getState().status, 'completed');
  });

  it('decides nothing for an intent that no longer waits', async () => {
    const calls: string[] = [];
    const runtime = {
      getState: () => ({ intents: { i1: { status: 'done' } }, frames: {} }) as never,
      approve: () => calls.push('approve'),
      reject: () => calls.push('reject'),
    };
    let drove = 0;
    const outcome = await decideApproval({ runtime }, 'i1', { approve: true, scope: 'once' }, async () => {
      drove++;
      return true;
    });
    assert.equal(outcome, 'not_waiting');
    assert.equal(drove, 0);
    assert.deepEqual(calls, []);
  });
});
