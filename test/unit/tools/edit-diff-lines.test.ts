// The diff of an exact edit reads only the lines around its changes: it never counts every line
// of the file (on a 100,000-line file that count cost more than the rest of the edit).
import assert from 'node:assert/strict';
import { diffReplacements } from '../../../src/tools/edit/edit-diff.js';
import { LineIndex } from '../../../src/tools/text/line-index.js';
import { SparseLines } from '../../../src/tools/text/sparse-lines.js';

/** SparseLines that refuses to count the whole file. */
class NoTotal extends SparseLines {
  override get length(): number {
    throw new Error('counted every line');
  }
}

describe('edit diff line lookups', () => {
  const text = Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join('');
  const at = (line: number) => text.indexOf(`line ${line}\n`);

  it('diffs an edit without counting the lines of the whole file, as a full index diffs it', () => {
    const cases = [
      [{ start: at(5), end: at(5) + 6, replacement: 'LINE 5' }],
      // Removing a newline joins the next line into the change.
      [{ start: at(7) + 6, end: at(8), replacement: '' }],
      [
        { start: at(1), end: at(2), replacement: '' },
        { start: at(100), end: at(100) + 8, replacement: 'x\ny\nz' },
      ],
    ];
    for (const reps of cases) {
      const expected = diffReplacements('f', new LineIndex(text), reps);
      assert.deepEqual(diffReplacements('f', new NoTotal(text), reps), expected);
    }
  });

  it('walks forward to any line start as LineIndex does, with jumps of every size', () => {
    const full = new LineIndex(text);
    const sparse = new SparseLines(text);
    for (const i of [0, 1, 3, 50, 51, 199, 200, 201, 250]) assert.equal(sparse.startOf(i), full.startOf(i), `startOf(${i})`);
    const fresh = new SparseLines(text);
    for (const o of [0, 9, 10, 500, 501, text.length - 1, text.length]) assert.equal(fresh.lineOf(o), full.lineOf(o), `lineOf(${o})`);
  });
});
