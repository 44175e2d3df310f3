// One window drives a task: the lock beside the task's log, with an injected clock.
import assert from 'node:assert/strict';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { TaskLocks } from '../../../src/host/tasks/task-lock.js';
import { scratchDir } from '../../support/scratch.js';

const STALE = 30_000;

function windows(dir: string, alive = new Set([1, 2])) {
  const clock = { t: 1_700_000_000_000 };
  const make = (pid: number, window: string) =>
    new TaskLocks({ dir, self: { pid, window }, staleMs: STALE, now: () => clock.t, isAlive: (p) => alive.has(p) });
  return { clock, one: make(1, 'w1'), two: make(2, 'w2') };
}

describe('task locks (one window drives a task)', () => {
  it('refuses a second window while the first holds the task, and frees it on release', async () => {
    const dir = scratchDir('task-lock');
    const { one, two } = windows(dir);
    assert.deepEqual(await one.claim('t1'), { ok: true });
    assert.ok(existsSync(path.join(dir, 't1.lock')), 'the lock sits beside the log');
    assert.deepEqual(await two.claim('t1'), { ok: false, holder: { pid: 1, window: 'w1' } });
    assert.deepEqual(await two.heldElsewhere('t1'), { pid: 1, window: 'w1' });
    assert.deepEqual(await one.claim('t1'), { ok: true }, 'the holder may claim again');
    await two.release('t1');
    assert.ok(existsSync(path.join(dir, 't1.lock')), 'a window never removes another’s lock');
    await one.release('t1');
    assert.equal(await two.heldElsewhere('t1'), undefined);
    assert.deepEqual(await two.claim('t1'), { ok: true });
  });

  it('stays held while the heartbeat runs, and is taken over once it stops', async () => {
    const { clock, one, two } = windows(scratchDir('task-lock-beat'));
    await one.claim('t1');
    clock.t += STALE - 1;
    await one.beat();
    clock.t += STALE - 1;
    assert.equal((await two.claim('t1')).ok, false, 'the heartbeat kept it fresh');
    clock.t += 2;
    assert.deepEqual(await two.claim('t1'), { ok: true }, 'no heartbeat for longer than the timeout: stale');
    assert.deepEqual(await one.heldElsewhere('t1'), { pid: 2, window: 'w2' });
  });

  it('takes over the lock of a process that is gone, however fresh', async () => {
    const alive = new Set([1, 2]);
    const { one, two } = windows(scratchDir('task-lock-dead'), alive);
    await one.claim('t1');
    alive.delete(1);
    assert.deepEqual(await two.claim('t1'), { ok: true });
  });

  it('counts a lock it cannot read as held while fresh (its creator is writing it)', async () => {
    const dir = scratchDir('task-lock-garbled');
    const { clock, two } = windows(dir);
    writeFileSync(path.join(dir, 't1.lock'), '');
    utimesSync(path.join(dir, 't1.lock'), new Date(clock.t), new Date(clock.t));
    assert.equal((await two.claim('t1')).ok, false);
  });
});
