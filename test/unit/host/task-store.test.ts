import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { Registry, Runtime, replay } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { TaskStore, type TaskLogFiles } from '../../../src/host/tasks/task-store.js';
import { OutputQueue } from '../../../src/kernel/output-queue.js';
import { scratchDir } from '../../support/scratch.js';
import { fakeWriteTool } from '../../support/fake-write-tool.js';
import { until } from '../../support/until.js';

const logs: TaskLogFiles = {
  load: async (file) => (existsSync(file) ? loadLog(file).events : []),
  open: async (file) => JsonlLogStore.open(file),
};

const writeTool = fakeWriteTool();

function storeWith(dir: string, script: ConstructorParameters<typeof ScriptedProvider>[0]): TaskStore {
  const registry = new Registry();
  registry.addTool(writeTool);
  return new TaskStore({
    dir,
    logs,
    createRuntime: ({ events, store }) => new Runtime({ provider: new ScriptedProvider(script), registry, store, events }),
  });
}

/** Polls `check`; the deadline is a generous hang guard, not a timing claim. */
describe('host/task-store', () => {
  it('reloads a finished task with the same transcript state', async () => {
    const dir = scratchDir('tasks');
    const first = storeWith(dir, [textTurn('Hello there.')]);
    await first.init();
    const task = await first.create();
    await first.titleFromMessage(task.id, 'Say hello\nplease');
    await task.send('Say hello');
    const before = task.getState();
    assert.equal(before.status, 'completed');
    await first.dispose();

    const second = storeWith(dir, []);
    await second.init();
    assert.deepEqual(
      second.list().map((t) => [t.id, t.title, t.status]),
      [[task.id, 'Say hello', 'completed']],
    );
    const again = await second.get(task.id);
    assert.deepEqual(again.getState(), before);
    assert.equal(again.interrupted, false);
    await second.dispose();
  });

  it('shows a run cut off while waiting for approval as interrupted, and asks again on resume', async () => {
    const dir = scratchDir('tasks');
    const first = storeWith(dir, [toolTurn('write_file', { path: 'a.txt' })]);
    await first.init();
    const task = await first.create();
    void task.send('write a.txt');
    await until(() => task.getState().status === 'waiting_for_approval');
    await first.flush();
    // The window reloads here: nothing more is written, the run never ends.

    const second = storeWith(dir, [textTurn('Done.')]);
    await second.init();
    const reloaded = await second.get(task.id);
    assert.equal(reloaded.interrupted, true);
    assert.equal(reloaded.getState().status, 'waiting_for_approval');
    const intentId = reloaded.getState().pendingIntentIds[0]!;
    const asked: string[] = [];
    reloaded.runtime.subscribe((o) => {
      if (o.kind === 'event' && o.event.type === 'approval_requested') asked.push(o.event.intentId);
      if (o.kind === 'event' && o.event.type === 'intent_started') assert.fail('ran without approval');
    });
    void reloaded.resume();
    assert.equal(reloaded.interrupted, false);
    await until(() => asked.length > 0);
    assert.deepEqual(asked, [intentId]);
    reloaded.runtime.reject(intentId, 'no');
    await reloaded.idle();
    await second.dispose();
  });

  it('rebuilds a lost index from the logs and deletes a task with its log', async () => {
    const dir = scratchDir('tasks');
    const first = storeWith(dir, [textTurn('ok')]);
    await first.init();
    const task = await first.create();
    await task.send('Explain the code');
    await first.dispose();
    writeFileSync(path.join(dir, 'index.json'), '{ torn');

    const second = storeWith(dir, []);
    await second.init();
    const [entry] = second.list();
    assert.equal(entry?.id, task.id);
    assert.equal(entry?.title, 'Explain the code');
    assert.equal(entry?.status, 'completed');
    assert.equal(replay(loadLog(second.logFile(task.id)).events).status, 'completed');
    await second.delete(task.id);
    assert.equal(existsSync(second.logFile(task.id)), false);
    assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')).tasks, []);
    await second.dispose();
  });
});

describe('host/task: a run the task drives', () => {
  it('reaches its listeners and is queued nowhere (no output queue filled for nobody to read)', async () => {
    const dir = scratchDir('tasks');
    const store = storeWith(dir, [textTurn('Hello there, in several words.')]);
    await store.init();
    const task = await store.create();
    const heard: string[] = [];
    const unsubscribe = task.runtime.subscribe((out) => void (out.kind === 'event' && heard.push(out.event.type)));
    const push = OutputQueue.prototype.push;
    let queued = 0;
    OutputQueue.prototype.push = function (this: OutputQueue<unknown>, item: unknown) {
      queued++;
      push.call(this, item);
    };
    try {
      await task.send('Say hello');
    } finally {
      OutputQueue.prototype.push = push;
      unsubscribe();
    }
    assert.equal(task.getState().status, 'completed');
    assert.ok(heard.includes('text_delta') && heard.at(-1) === 'run_finished', `heard ${heard.join(', ')}`);
    assert.equal(queued, 0, 'outputs pushed into a queue nobody reads');
    await store.dispose();
  });
});
