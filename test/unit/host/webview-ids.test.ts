// Every id the webview sends is checked on the host before it is used: a task id against the id
// pattern before any file path is built from it, an intent id against the intents waiting.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Registry, Runtime } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { dispatchWebviewMessage } from '../../../src/host/presenter/index.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';
import { fakeWriteTool } from '../../support/fake-write-tool.js';
import { until } from '../../support/until.js';

const writeTool = fakeWriteTool();

/** A task store in `<root>/storage/tasks`, with a victim log two folders up from it. */
function world(script: Script) {
  const root = scratchDir('ids');
  const dir = path.join(root, 'storage', 'tasks');
  const victim = path.join(root, 'x.jsonl');
  writeFileSync(victim, '{"precious": true}\n');
  mkdirSync(dir, { recursive: true });
  const registry = new Registry().addTool(writeTool);
  const tasks = new TaskStore({
    dir,
    logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: ({ events, store }) => new Runtime({ provider: new ScriptedProvider(script), registry, store, events }),
  });
  const warnings: string[] = [];
  const session = new Session({
    tasks,
    post: () => undefined,
    keyMissing: async () => false,
    trusted: () => true,
    model: () => ({ contextWindow: 0, price: undefined }),
    focusIntent: async () => true,
    watch: () => () => undefined,
    setContext: () => undefined,
    log: { info() {}, warn: (m) => warnings.push(m), error() {} },
  });
  return { tasks, session, victim, warnings };
}

describe('vscode: ids from the webview', () => {
  it('drops task/delete and task/open with an id that is not a task id, before any handler runs', async () => {
    const w = world([]);
    await w.tasks.init();
    const dropped: string[] = [];
    const handled: string[] = [];
    const handlers = {
      'task/delete': async (m: { id: string }) => {
        handled.push(m.id);
        await w.session.deleteTask(m.id);
      },
      'task/open': async (m: { id: string }) => void handled.push(m.id),
    };
    for (const id of ['../../x', '..\\..\\x', 'a/b', '', '.', 'x'.repeat(65), 'a\u0000b'])
      for (const type of ['task/delete', 'task/open'])
        assert.equal(
          dispatchWebviewMessage({ type, id }, handlers, (m) => dropped.push(m)),
          undefined,
          `${type} ${JSON.stringify(id)}`,
        );
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(handled, []);
    assert.equal(dropped.length, 14);
    assert.ok(existsSync(w.victim), 'the log outside the tasks folder is still there');
  });

  it('the store builds no path from an invalid id and deletes only tasks it knows', async () => {
    const w = world([]);
    await w.tasks.init();
    assert.throws(() => w.tasks.logFile('../../x'), /Not a task id/);
    await assert.rejects(w.tasks.delete('../../x'), /Not a task id/);
    // A valid-looking id that is no task of this workspace: refused too, nothing removed.
    const stray = path.join(w.tasks.dir, 'stray.jsonl');
    writeFileSync(stray, '{}\n');
    await assert.rejects(w.tasks.delete('stray'), /No task with id/);
    await w.session.deleteTask('stray');
    assert.ok(existsSync(stray));
    assert.ok(existsSync(w.victim));
    assert.match(w.warnings.join('\n'), /unknown task stray/);
    const task = await w.tasks.create();
    await w.tasks.delete(task.id);
    assert.equal(existsSync(w.tasks.logFile(task.id)), false);
  });

  it('approves or rejects only an intent of the shown task that is waiting', async () => {
    const w = world([toolTurn('write_file', { path: 'a.txt' }), textTurn('ok')]);
    await w.tasks.init();
    const task = await w.session.send('write it');
    await until(() => task.getState().status === 'waiting_for_approval', 2000);
    const waiting = task.getState().pendingIntentIds[0]!;
    w.session.approve('made-up-intent', 'workspace');
    w.session.reject('another-made-up-one', 'no');
    await w.session.focus('made-up-intent');
    assert.equal(task.getState().intents[waiting]?.status, 'awaiting_approval', 'nothing was decided');
    assert.equal(w.warnings.length, 3, w.warnings.join('\n'));
    w.session.approve(waiting, 'once');
    await task.idle();
    const decided = () => task.getEvents().filter((e) => e.type === 'intent_approved' || e.type === 'intent_rejected');
    assert.deepEqual(
      decided().map((e) => e.type),
      ['intent_approved'],
    );
    // Decided already: a second decision is ignored (and said so), not applied.
    w.session.reject(waiting, 'too late');
    assert.equal(decided().length, 1);
    assert.match(w.warnings.at(-1)!, /ignored a rejection of .*: it is (done|failed)/);
  });
});
