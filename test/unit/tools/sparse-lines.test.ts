import assert from 'node:assert/strict';
import { LineIndex } from '../../../src/tools/text/line-index.js';
import { SparseLines } from '../../../src/tools/text/sparse-lines.js';

describe('SparseLines', () => {
  it('answers as LineIndex does, in any order of questions', () => {
    const texts = ['', 'a', 'a\n', '\n', '\n\n', 'a\nb', 'a\r\nb\r\n', 'one\ntwo\n\nfour\nfive'];
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let k = 0; k < 40; k++) texts.push(Array.from({ length: Math.floor(rnd() * 30) }, () => (rnd() < 0.3 ? '\n' : 'x')).join(''));
    for (const text of texts) {
      const [full, sparse] = [new LineIndex(text), new SparseLines(text)];
      const offsets = Array.from({ length: text.length + 1 }, (_, i) => i).sort(() => rnd() - 0.5);
      for (const o of offsets) assert.equal(sparse.lineOf(o), full.lineOf(o), `lineOf(${o}) in ${JSON.stringify(text)}`);
      assert.equal(sparse.length, full.length, JSON.stringify(text));
      for (let i = full.length + 1; i >= 0; i--) {
        assert.equal(sparse.startOf(i), full.startOf(i), `startOf(${i}) in ${JSON.stringify(text)}`);
        if (i < full.length) assert.equal(sparse.at(i), full.at(i), `at(${i}) in ${JSON.stringify(text)}`);
      }
    }
  });

  it('says min(length, n) as LineIndex does, asked first or after other questions', () => {
    const texts = ['', 'a', 'a\n', '\n', '\n\n', 'a\nb', 'a\r\nb\r\n', 'one\ntwo\n\nfour\nfive', 'x\n'.repeat(20), `${'x\n'.repeat(20)}y`];
    for (const text of texts) {
      const full = new LineIndex(text);
      for (let n = 0; n <= full.length + 2; n++) {
        assert.equal(new SparseLines(text).linesUpTo(n), full.linesUpTo(n), `linesUpTo(${n}) first, in ${JSON.stringify(text)}`);
        const asked = new SparseLines(text);
        asked.lineOf(text.length >> 1);
        assert.equal(asked.linesUpTo(n), Math.min(full.length, n), `linesUpTo(${n}) after lineOf, in ${JSON.stringify(text)}`);
      }
    }
  });
});
