// Issue 21 #4: edit and resend asks whether to put back the files the task changed after the
// edited message (and does what the answer says), the fork is told apart from the original by
// its title, and New Task does not pile empty "New task · idle" rows into the history.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runtime, type ApprovalPolicy } from '../../../src/kernel/index.js';
import { NodeCheckpointStore } from '../../../src/node/checkpoint-store.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { composeRegistry } from '../../../src/compose/index.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { type ForkFiles, Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';

const allowAll: ApprovalPolicy = { decide: () => ({ type: 'allow', reason: 'test' }) };

async function world(answer: ForkFiles | undefined) {
  const root = scratchDir('session-ws');
  const storage = scratchDir('session-cp');
  const workspace = await createNodeWorkspace(root);
  const asked: string[][] = [];
  const script = [
    toolTurn('write_file', { path: 'a.txt', content: 'A\n' }),
    textTurn('made a'),
    toolTurn('write_file', { path: 'b.txt', content: 'B\n' }),
    textTurn('made b'),
    textTurn('resent'),
  ];
  const provider = new ScriptedProvider(script);
  const tasks = new TaskStore({
    dir: scratchDir('session-tasks'),
    logs: { load: async (f) => (fs.existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: ({ taskId, events, store }) =>
      new Runtime({
        provider,
        registry: composeRegistry(workspace),
        workspace,
        policy: allowAll,
        store,
        events,
        checkpoints: new NodeCheckpointStore({ storageDir: storage, workspaceRoot: root, taskId }),
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
    askForkFiles: async (paths) => {
      asked.push([...paths]);
      return answer;
    },
  });
  await tasks.init();
  const task = await session.send('make a');
  await task.idle();
  await session.send('make b');
  await task.idle();
  const second = task.getEvents().filter((e) => e.type === 'user_message')[1]!;
  return { session, tasks, task, root, asked, second: `u${second.seq}` };
}

describe('host/session: edit and resend with files changed after the message (issue 21 #4)', () => {
  it('asks, and restores the files to before the edited message when told to', async () => {
    const w = await world('restore');
    assert.ok(fs.existsSync(path.join(w.root, 'b.txt')));
    const fork = await w.session.fork(w.second, 'make c instead');
    assert.deepEqual(w.asked, [['b.txt']], 'asked about the file changed after that message');
    assert.equal(fs.existsSync(path.join(w.root, 'b.txt')), false, 'b.txt, made after it, is gone');
    assert.equal(fs.readFileSync(path.join(w.root, 'a.txt'), 'utf8'), 'A\n', 'a.txt, made before it, stays');
    assert.ok(fork);
    await fork.idle();
    assert.equal(w.tasks.entry(fork.id)?.title, 'make c instead (edited)');
  });

  it('keeps the files when told to, and does nothing at all on cancel', async () => {
    const keep = await world('keep');
    assert.ok(await keep.session.fork(keep.second, 'make c'));
    assert.ok(fs.existsSync(path.join(keep.root, 'b.txt')));
    const cancel = await world(undefined);
    const before = cancel.tasks.list().length;
    assert.equal(await cancel.session.fork(cancel.second, 'make c'), undefined);
    assert.equal(cancel.tasks.list().length, before, 'no fork');
    assert.ok(fs.existsSync(path.join(cancel.root, 'b.txt')));
  });
});

describe('host/session: New Task and the history (issue 21 #4)', () => {
  it('reuses the shown task while nothing was sent in it, and lists no empty tasks', async () => {
    const w = await world('keep');
    const empty = await w.session.newTask();
    assert.equal(await w.session.newTask(), empty, 'a second New Task is the same empty task');
    assert.equal(await w.session.newTask(), empty);
    await w.session.openTask(w.task.id);
    const listed = w.session.taskList().tasks.map((t) => t.title);
    assert.deepEqual(listed, ['make a'], 'the empty task is not a row of the history');
  });
});
