// One history per workspace folder: every window or browser tab on the same folder uses one
// task folder (keyed by the folder URI's hash), sees the tasks the others started, and never
// loses theirs when it writes the index.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Registry, Runtime } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { historyRows } from '../../../src/host/tasks/history-items.js';
import { adoptOldCheckpoints, adoptOldTasks, checkpointHome, taskHome } from '../../../src/host/tasks/task-home.js';
import { TaskCheckpoints } from '../../../src/host/tasks/task-checkpoints.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';

/** A window's store on `dir`. */
function windowOn(dir: string): TaskStore {
  return new TaskStore({
    dir,
    logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: ({ events, store }) =>
      new Runtime({ provider: new ScriptedProvider([textTurn('ok')]), registry: new Registry(), store, events }),
  });
}

describe('shared task history', () => {
  it('keys the task folder by the workspace folder, not by the window', () => {
    const a = taskHome('/g', 'file:///home/me/project');
    assert.equal(taskHome('/g', 'file:///home/me/project'), a, 'a second tab on the same folder');
    assert.notEqual(taskHome('/g', 'file:///home/me/other'), a);
    assert.ok(a.startsWith(path.join('/g', 'workspaces')));
  });

  it('two windows on one folder see each other’s tasks and keep them when writing', async () => {
    const dir = scratchDir('shared-history');
    const one = windowOn(dir);
    const two = windowOn(dir);
    await one.init();
    await two.init();
    const a = await one.create('From tab one');
    const b = await two.create('From tab two'); // two's index did not know `a`: it must not drop it
    await one.refresh();
    await two.refresh();
    assert.deepEqual(
      one
        .list()
        .map((t) => t.id)
        .sort(),
      [a.id, b.id].sort(),
    );
    assert.deepEqual(
      two
        .list()
        .map((t) => t.id)
        .sort(),
      [a.id, b.id].sort(),
    );
    await one.delete(b.id);
    await two.rename(a.id, 'Renamed in tab two'); // two still lists b: the merge must not revive it
    await one.refresh();
    assert.deepEqual(
      one.list().map((t) => t.title),
      ['Renamed in tab two'],
    );
    const onDisk = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as { tasks: { id: string }[] };
    assert.deepEqual(
      onDisk.tasks.map((t) => t.id),
      [a.id],
    );
    await one.dispose();
    await two.dispose();
  });

  it('adopts the tasks of the older per-window folder once, leaving the old copy', async () => {
    const old = scratchDir('old-tasks');
    mkdirSync(old, { recursive: true });
    writeFileSync(path.join(old, '000000001-abcdef.jsonl'), '');
    writeFileSync(path.join(old, 'notes.txt'), 'not a task');
    const home = path.join(scratchDir('new-home'), 'tasks');
    assert.equal(await adoptOldTasks(old, home), 1);
    assert.ok(existsSync(path.join(home, '000000001-abcdef.jsonl')));
    assert.ok(!existsSync(path.join(home, 'notes.txt')));
    assert.ok(existsSync(path.join(old, '000000001-abcdef.jsonl')));
    assert.equal(await adoptOldTasks(old, home), 0, 'a home in use is never overwritten');
  });

  it('lists history newest first, grouped by day, titles first with time and status under', () => {
    const now = new Date(2026, 10, 23, 15, 0).getTime();
    const at = (d: number, h: number) => new Date(2026, 10, d, h, 30).getTime();
    const rows = historyRows(
      {
        tasks: [
          { id: 't1', title: 'Old one', updatedAt: at(20, 9), status: 'completed' },
          { id: 't2', title: 'This morning', updatedAt: at(23, 9), status: 'failed' },
          { id: 't3', title: 'Last night', updatedAt: at(22, 22), status: 'completed' },
          { id: 't4', title: 'Just now', updatedAt: at(23, 14), status: 'running' },
        ],
        currentTaskId: 't4',
      },
      now,
    );
    assert.deepEqual(
      rows.map((r) => (r.kind === 'day' ? `# ${r.label.startsWith('Fri') ? 'Fri…' : r.label}` : r.title)),
      ['# Today', 'Just now', 'This morning', '# Yesterday', 'Last night', '# Fri…', 'Old one'],
    );
    const first = rows[1]!;
    assert.ok(first.kind === 'task' && first.current && /running$/.test(first.detail));
  });
});

describe('shared checkpoints', () => {
  it('keeps a task’s checkpoints in the folder’s home, readable from another window', async () => {
    const globalStorage = scratchDir('shared-checkpoints');
    const root = scratchDir('shared-checkpoints-ws');
    writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const home = checkpointHome(globalStorage, 'file:///home/me/project');
    assert.equal(path.dirname(taskHome(globalStorage, 'file:///home/me/project')), home, 'beside the shared tasks');
    const windowOne = new TaskCheckpoints({
      storageDir: home,
      root,
      caps: () => ({ maxBytes: 1 << 24, maxFileBytes: 1 << 20 }),
      warn: assert.fail,
    });
    const store = windowOne.forTask('t1')!;
    const taken = await store.capture(['a.txt']);
    const windowTwo = new TaskCheckpoints({
      storageDir: checkpointHome(globalStorage, 'file:///home/me/project'),
      root,
      caps: () => ({ maxBytes: 1 << 24, maxFileBytes: 1 << 20 }),
      warn: assert.fail,
    });
    const hash = taken[0]!.before!;
    assert.equal(new TextDecoder().decode((await windowTwo.reader()!.read(hash))!), 'one\n');
  });

  it('moves the per-window checkpoints into the folder’s home once', async () => {
    const oldStorage = scratchDir('old-window');
    mkdirSync(path.join(oldStorage, 'checkpoints', 'x'), { recursive: true });
    writeFileSync(path.join(oldStorage, 'checkpoints', 'x', 'blob'), 'b');
    const home = checkpointHome(scratchDir('global'), 'file:///p');
    assert.equal(await adoptOldCheckpoints(oldStorage, home), true);
    assert.equal(readFileSync(path.join(home, 'checkpoints', 'x', 'blob'), 'utf8'), 'b');
    assert.equal(await adoptOldCheckpoints(oldStorage, home), false, 'nothing left to move, and the home keeps its own');
  });
});
