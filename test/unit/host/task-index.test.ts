import assert from 'node:assert/strict';
import {
  emptyIndex,
  isInterrupted,
  listEntries,
  newTaskId,
  parseIndex,
  patchEntry,
  removeEntry,
  serializeIndex,
  upsertEntry,
  type TaskIndexEntry,
} from '../../../src/host/tasks/task-index.js';

const entry = (id: string, updatedAt: number, title = id): TaskIndexEntry => ({
  id,
  title,
  createdAt: updatedAt,
  updatedAt,
  status: 'completed',
});

describe('host/task-index', () => {
  it('round-trips through its file form', () => {
    const index = upsertEntry(upsertEntry(emptyIndex(), entry('a', 1)), entry('b', 2));
    assert.deepEqual(parseIndex(serializeIndex(index)), index);
  });

  it('refuses a corrupt or foreign file (the store rebuilds from the logs)', () => {
    assert.equal(parseIndex('{"version":1,"tasks":[{"id":"../x"'), undefined);
    assert.equal(parseIndex('{"version":2,"tasks":[]}'), undefined);
    assert.equal(parseIndex('{"version":1,"tasks":[{"id":"../etc","title":"","createdAt":1,"updatedAt":1,"status":"idle"}]}'), undefined);
  });

  it('lists the most recently updated first', () => {
    let index = emptyIndex();
    for (const e of [entry('old', 1), entry('new', 3), entry('mid', 2)]) index = upsertEntry(index, e);
    assert.deepEqual(
      listEntries(index).map((e) => e.id),
      ['new', 'mid', 'old'],
    );
  });

  it('upserts, patches and removes by id', () => {
    let index = upsertEntry(emptyIndex(), entry('a', 1, 'first'));
    index = upsertEntry(index, entry('a', 5, 'second'));
    assert.equal(index.tasks.length, 1);
    assert.equal(index.tasks[0]!.title, 'second');
    index = patchEntry(index, 'a', { status: 'failed' });
    assert.equal(index.tasks[0]!.status, 'failed');
    assert.equal(index.tasks[0]!.createdAt, 5);
    assert.deepEqual(removeEntry(index, 'a').tasks, []);
  });

  it('calls a run that never ended, loaded from its log, interrupted', () => {
    for (const s of ['running', 'executing', 'waiting_for_approval'] as const) {
      assert.ok(isInterrupted(s, false), s);
      assert.ok(!isInterrupted(s, true), `${s} live`);
    }
    for (const s of ['idle', 'completed', 'failed', 'cancelled'] as const) assert.ok(!isInterrupted(s, false), s);
  });

  it('makes file-safe, time-ordered ids', () => {
    const a = newTaskId(1000, () => 0.5);
    const b = newTaskId(2000, () => 0.1);
    assert.match(a, /^[a-z0-9]+-[a-z0-9]{6}$/);
    assert.ok(a < b);
  });
});
