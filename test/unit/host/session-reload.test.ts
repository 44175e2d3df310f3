// After a window reload the task's transcript comes at once (issue 34 #13, "ten seconds of
// placeholders"): the first snapshot waits on reading the task, not on the key lookup or the
// command and agent files, and it says nothing about the key until the lookup answers.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Registry, Runtime } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import type { HostMessage, SessionSnapshot, TranscriptDelta } from '../../../src/protocol/index.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';
import { until } from '../../support/until.js';

/** A window on `dir` whose key lookup answers only when `answerKey` is called. */
function window(dir: string) {
  let answerKey: (missing: boolean) => void = () => undefined;
  const keyLookup = new Promise<boolean>((resolve) => {
    answerKey = resolve;
  });
  const tasks = new TaskStore({
    dir,
    logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: ({ events, store }) =>
      new Runtime({ provider: new ScriptedProvider([textTurn('Hi!')]), registry: new Registry(), store, events }),
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const posted: HostMessage[] = [];
  const session: Session = new Session({
    tasks,
    post: (m) => posted.push(m),
    keyMissing: () => keyLookup,
    trusted: () => true,
    model: () => ({ contextWindow: 1000, price: undefined }),
    focusIntent: async () => false,
    watch: () => () => undefined,
    setContext: () => undefined,
    log: { info() {}, warn() {}, error() {} },
  });
  return { tasks, session, posted, answerKey: (missing: boolean) => answerKey(missing) };
}

const snapshots = (posted: HostMessage[]) => posted.filter((m): m is SessionSnapshot => m.type === 'session/snapshot');

describe('host/session: the first view after a reload', () => {
  it('posts the task’s transcript before the key lookup answers, the key line unsaid until it does', async () => {
    const dir = scratchDir('session-reload');
    const first = window(dir);
    first.answerKey(false);
    await first.tasks.init();
    const task = await first.session.send('Hello');
    await task.idle();
    await first.tasks.flush();

    const second = window(dir);
    await second.tasks.init();
    const ready = second.session.ready();
    await until(() => snapshots(second.posted).length > 0);
    const snap = snapshots(second.posted)[0]!;
    assert.equal(snap.taskId, task.id);
    assert.deepEqual(
      (JSON.parse(snap.itemsJson) as { kind: string }[]).map((i) => i.kind),
      ['user', 'assistant'],
      'the transcript, not placeholders',
    );
    assert.equal(snap.hints.keyUnread, true, 'no word about a key not looked up yet');

    second.answerKey(true);
    await ready;
    const hints = second.posted.flatMap((m) =>
      m.type === 'transcript/delta' ? (m as TranscriptDelta).ops.flatMap((op) => (op.type === 'hints/set' ? [op.hints] : [])) : [],
    );
    const last = hints.at(-1)!;
    assert.equal(last.noApiKey, true, 'the lookup’s answer follows');
    assert.equal(last.keyUnread, false);
  });
});
