// The "indexing…" line of `keel run`: silent for a build that ends within a second, then at most
// one line a second with the counts, and a closing line only when a progress line was shown.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { indexProgressPrinter } from '../../../src/cli/index-progress.js';

function printer() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  let clock = 0;
  const tell = indexProgressPrinter(out, () => clock);
  return { tell, at: (ms: number) => (clock = ms), text: () => text };
}

describe('keel run: index progress on stderr', () => {
  it('says nothing about a build done within a second', () => {
    const p = printer();
    for (let i = 1; i <= 500; i++) {
      p.at(i);
      p.tell({ parsed: i, total: 500 });
    }
    assert.equal(p.text(), '');
  });

  it('writes one line a second at most, with the counts, then says it is done', () => {
    const p = printer();
    for (let i = 1; i <= 2332; i++) {
      p.at(i);
      p.tell({ parsed: i, total: 2332 });
    }
    assert.deepEqual(p.text().trimEnd().split('\n'), [
      'keel: indexing 1,001/2,332 files…',
      'keel: indexing 2,001/2,332 files…',
      'keel: indexed 2,332 files',
    ]);
  });
});
