// Restore task to here: a new task whose log is the original's up to that point. The original
// log is left byte for byte as it was (the log is the truth), the fork reloads as its own task.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Registry, Runtime } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { TaskStore, type TaskLogFiles } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';

const logs: TaskLogFiles = {
  load: async (file) => (existsSync(file) ? loadLog(file).events : []),
  open: async (file) => JsonlLogStore.open(file),
};

function storeAt(dir: string): TaskStore {
  return new TaskStore({
    dir,
    logs,
    createRuntime: ({ events, store }) =>
      new Runtime({
        provider: new ScriptedProvider([textTurn('first answer'), textTurn('second answer')]),
        registry: new Registry(),
        store,
        events,
      }),
  });
}

describe('host/task-store: fork (Restore task to here)', () => {
  it('copies the log up to a point into a new task and keeps the original log as it was', async () => {
    const dir = scratchDir('fork');
    const store = storeAt(dir);
    await store.init();
    const task = await store.create('Original');
    await task.send('first');
    await task.send('second');
    await store.flush();
    const original = readFileSync(store.logFile(task.id));
    const firstRunEnd = task.getEvents().find((e) => e.type === 'run_finished')!;
    const fork = await store.fork(task.id, firstRunEnd.seq, 'Original (from step 1)');
    assert.notEqual(fork.id, task.id);
    assert.deepEqual(
      fork.getEvents(),
      task.getEvents().filter((e) => e.seq <= firstRunEnd.seq),
    );
    assert.equal(fork.getState().messages.filter((m) => m.type === 'user').length, 1);
    assert.equal(store.entry(fork.id)?.title, 'Original (from step 1)');
    // Cut inside a run: the fork ends that run (cancelled) instead of offering to resume it.
    const midRun = task.getEvents().find((e) => e.type === 'turn_started')!;
    const cut = await store.fork(task.id, midRun.seq, 'Original (mid-run)');
    assert.equal(cut.getEvents().at(-1)?.type, 'run_cancelled');
    assert.equal(cut.getState().status, 'cancelled');
    assert.equal(cut.interrupted, false);
    await store.dispose();
    assert.deepEqual(readFileSync(store.logFile(task.id)), original, 'the original log is untouched');
    // The fork reloads from its own log and goes on as a task of its own.
    const again = storeAt(dir);
    await again.init();
    const reloaded = await again.get(fork.id);
    assert.equal(reloaded.getEvents().length, firstRunEnd.seq);
    await reloaded.send('another question');
    assert.equal(reloaded.getState().status, 'completed');
    await again.dispose();
  });
});
