// The panel's indexing line is fed a few updates a second, not one per file parsed, and is
// cleared when the build ends — but only if it was shown; nothing reaches a session not yet there.
import assert from 'node:assert/strict';
import { IndexProgressRelay, type IndexingHint } from '../../../src/host/workspace/index-progress-relay.js';

describe('host: the index progress relay', () => {
  it('passes on at most one update per 250 ms, then clears the line when the build ends', () => {
    let clock = 0;
    const relay = new IndexProgressRelay(() => clock);
    const seen: IndexingHint[] = [];
    relay.report({ parsed: 1, total: 1000 }); // before anyone listens: dropped
    relay.listen((h) => seen.push(h));
    for (let i = 2; i <= 1000; i++) {
      clock = i;
      relay.report({ parsed: i, total: 1000 });
    }
    assert.deepEqual(seen, [
      { parsed: 2, total: 1000 },
      { parsed: 252, total: 1000 },
      { parsed: 502, total: 1000 },
      { parsed: 752, total: 1000 },
      undefined,
    ]);
  });

  it('sends nothing for a build that ends before its first update is due', () => {
    const clock = 0;
    const relay = new IndexProgressRelay(() => clock);
    const seen: IndexingHint[] = [];
    relay.listen((h) => seen.push(h));
    relay.report({ parsed: 3, total: 3 });
    assert.deepEqual(seen, []);
  });
});
