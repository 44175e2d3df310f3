// Issue 21, "notice when Keel needs you": a badge on the Keel view counting the cards that wait,
// and a notification with Show when a card starts waiting or a run ends while the window or the
// view is not in front; both can be turned off.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Registry, Runtime } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { Attention, type AttentionPorts } from '../../../src/host/session/attention.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';
import { fakeWriteTool } from '../../support/fake-write-tool.js';
import { until } from '../../support/until.js';

function ports(over: Partial<AttentionPorts> = {}) {
  const seen = { badges: [] as number[], notes: [] as string[], shown: 0 };
  const p: AttentionPorts = {
    badge: (n) => seen.badges.push(n),
    notify: async (m) => {
      seen.notes.push(m);
      return true;
    },
    show: () => {
      seen.shown++;
    },
    away: () => true,
    settings: () => ({ badge: true, whenAway: true }),
    ...over,
  };
  return { p, seen };
}

const writeTool = fakeWriteTool();

describe('attention: the badge and notifications (issue 21)', () => {
  it('counts waiting cards on the badge and says when a card waits and when the run ends, with Show', async () => {
    const { p, seen } = ports();
    const attention = new Attention(p);
    const registry = new Registry();
    registry.addTool(writeTool);
    const tasks = new TaskStore({
      dir: scratchDir('attention'),
      logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
      createRuntime: ({ events, store }) =>
        new Runtime({
          provider: new ScriptedProvider([toolTurn('write_file', { path: 'a.txt' }), textTurn('done')]),
          registry,
          store,
          events,
        }),
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
      attention,
    });
    await tasks.init();
    const task = await session.send('write a.txt');
    await until(() => seen.badges.at(-1) === 1);
    assert.deepEqual(seen.notes, ['Keel is waiting for your approval: a.txt']);
    await session.approve(task.getState().pendingIntentIds[0]!, 'once');
    await task.idle();
    assert.equal(seen.badges.at(-1), 0, 'the badge goes when nothing waits');
    assert.deepEqual(seen.notes.at(-1), 'Keel finished: write a.txt');
    await until(() => seen.shown === 2);
  });

  it('stays quiet while the user is looking, and each part can be turned off', async () => {
    const looking = ports({ away: () => false });
    new Attention(looking.p).cardWaits('npm test');
    assert.deepEqual(looking.seen.notes, []);
    const off = ports({ settings: () => ({ badge: false, whenAway: false }) });
    const a = new Attention(off.p);
    a.waiting(3);
    a.runEnded('failed', 'Fix the tests');
    assert.deepEqual(off.seen.badges, [0]);
    assert.deepEqual(off.seen.notes, []);
  });
});
