// exactOccurrences' one pass over the file (one alternation of all blocks' texts, shared
// beginnings written once) must find exactly what indexOf finds for each text on its own.
import assert from 'node:assert/strict';
import { exactOccurrences } from '../../../src/tools/edit/exact-occurrences.js';

function byIndexOf(text: string, search: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(search); i !== -1 && out.length < 10; i = text.indexOf(search, i + 1)) out.push(i);
  return out;
}

describe('exactOccurrences', () => {
  const file = [
    '  const a = 1;',
    '  const ab = 2;',
    '  const b = (x) => x.y[0] + $1 ^ 2;',
    '\tcafé = "naïve";',
    '  emoji 😀 here',
    '  emoji 😃 there',
    '  const a = 1;',
    '',
  ].join('\r\n');

  it('finds what indexOf finds for each block, whatever the blocks share', () => {
    const sets = [
      ['  const a = 1;', '  const b = (x) => x.y[0] + $1 ^ 2;'],
      ['  const ab = 2;', '  const b = (x)', '\tcafé = "naïve";'],
      // Blocks that differ only inside a surrogate pair: split there, they still match whole.
      ['  emoji 😀 here', '  emoji 😃 there'],
      ['emoji 😀', 'emoji 😃', 'café', 'nowhere at all', '[0] + $1 ^'],
      ['  const a = 1;\r\n  const ab', '  const b = (x) => x.y[0] + $1 ^ 2;\r\n\tcafé'],
      ['x', 'y', 'z', '😀', '\r\n\t'],
    ];
    for (const searches of sets) {
      const found = exactOccurrences(file, searches);
      for (const s of searches) assert.deepEqual(found(s), byIndexOf(file, s), `${JSON.stringify(s)} among ${JSON.stringify(searches)}`);
    }
  });

  it('finds what indexOf finds on random texts of a small alphabet', () => {
    let seed = 11;
    const rnd = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
    const word = (len: number) => Array.from({ length: len }, () => 'ab\n😀'[rnd(4)]).join('');
    for (let k = 0; k < 300; k++) {
      const text = word(40 + rnd(60));
      const searches = Array.from({ length: 2 + rnd(4) }, () => word(2 + rnd(5)));
      const found = exactOccurrences(text, searches);
      for (const s of searches) assert.deepEqual(found(s), byIndexOf(text, s), `${JSON.stringify(s)} in ${JSON.stringify(text)}`);
    }
  });
});
