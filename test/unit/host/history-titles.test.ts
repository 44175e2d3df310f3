// The history's titles: tasks that share a title (every "Fix the failing tests") read apart —
// by start time, then by number — in the view's list and the Task History picker alike.
import assert from 'node:assert/strict';
import { distinctTitles, historyRows } from '../../../src/host/tasks/history-items.js';

describe('task history: distinct titles', () => {
  const at = (h: number, m: number, day = 2) => new Date(2026, 11, day, h, m).getTime();

  it('gives repeated titles their start time, and a number when that repeats too; a unique title stays', () => {
    const titles = distinctTitles([
      { id: 'a', title: 'Fix the failing tests in this workspace.', createdAt: at(9, 5) },
      { id: 'b', title: 'Fix the failing tests in this workspace.', createdAt: at(14, 30) },
      { id: 'c', title: 'Fix the failing tests in this workspace.', createdAt: at(14, 30) + 20_000 },
      { id: 'd', title: 'Explain the parser', createdAt: at(10, 0) },
    ]);
    assert.equal(titles.get('d'), 'Explain the parser');
    const fixes = ['a', 'b', 'c'].map((id) => titles.get(id)!);
    assert.equal(new Set(fixes).size, 3, 'no two rows read alike');
    for (const t of fixes) assert.match(t, /^Fix the failing tests in this workspace\. · started /);
    assert.match(fixes[2]!, /#2$/);
  });

  it('names the day when the same title started on different days', () => {
    const titles = distinctTitles([
      { id: 'a', title: 'Fix it', createdAt: at(9, 5, 1) },
      { id: 'b', title: 'Fix it', createdAt: at(9, 5, 2) },
    ]);
    assert.notEqual(titles.get('a'), titles.get('b'));
    assert.match(titles.get('a')!, /Dec/);
  });

  it('lists rows with the titles it is given', () => {
    const rows = historyRows({ tasks: [{ id: 'a', title: 'T', updatedAt: at(9, 0), status: 'completed' }] }, at(10, 0));
    assert.equal(rows.length, 2);
  });
});
