// A task's log survives a reload: a second task store built on the same folder rebuilds the
// same conversation state from the JSONL file.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Registry, Runtime } from '../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../src/node/jsonl-store.js';
import { ScriptedProvider, textTurn } from '../../src/providers/scripted.js';
import { Presenter } from '../../src/host/presenter/index.js';
import { TaskStore } from '../../src/host/tasks/task-store.js';
import { keelApi, until } from './keel-api.js';

describe('Keel task logs', function () {
  this.timeout(90_000);

  it('reloads a task from its log with the same transcript state', async () => {
    const api = await keelApi();
    api.setProviderOverride(() => new ScriptedProvider([textTurn('The discount floors instead of rounding.')]));
    try {
      await api.session.newTask();
      const task = await api.session.send('Why do the tests fail?');
      await until('the run to finish', () => task.getState().status === 'completed');
      await api.tasks.flush();
      assert.ok(existsSync(api.tasks.logFile(task.id)));

      const reloaded = new TaskStore({
        dir: api.tasks.dir,
        logs: { load: async (f) => loadLog(f).events, open: async (f) => JsonlLogStore.open(f) },
        createRuntime: ({ events, store }) => new Runtime({ provider: new ScriptedProvider([]), registry: new Registry(), store, events }),
      });
      await reloaded.init();
      assert.equal(reloaded.entry(task.id)?.title, 'Why do the tests fail?');
      const again = await reloaded.get(task.id);
      assert.deepEqual(again.getState(), task.getState());
      assert.equal(again.interrupted, false);

      // The view shows the same transcript after the reload.
      const fresh = new Presenter({ post: () => undefined, kernel: () => again.getState() });
      fresh.load(again.getEvents(), task.id);
      assert.deepEqual(
        fresh.snapshot().items.map((i) => [i.kind, 'text' in i ? i.text : '']),
        api.session.presenter.snapshot().items.map((i) => [i.kind, 'text' in i ? i.text : '']),
      );
      await reloaded.dispose();
    } finally {
      api.setProviderOverride(undefined);
    }
  });
});
