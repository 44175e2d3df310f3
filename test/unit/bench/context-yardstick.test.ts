// bench:context grades Keel against a yardstick made from the task alone (issue 22, item 6): the
// yardstick is the same whatever build plays the task, a deliberately bad layout — folding before
// every turn, a system prompt that changes with every request — costs more against it than Keel's
// own, and at an 8k window Keel makes no edit whose text the request did not show.
import assert from 'node:assert/strict';
import { play } from '../../../bench/context/play.js';

describe('bench:context: an honest yardstick', function () {
  this.timeout(240_000);

  it('grades a bad layout worse than Keel’s, on a yardstick that does not move', async () => {
    const keel42 = await play(42_000);
    const foldEvery = await play(42_000, 'fold-every-turn');
    assert.equal(foldEvery.yardstick.ideal, keel42.yardstick.ideal, 'the yardstick comes from the task, not from the requests');
    const ratio = (r: typeof keel42) => r.cost / r.yardstick.ideal;
    assert.ok(ratio(foldEvery) > ratio(keel42) * 1.1, `folding every turn ${ratio(foldEvery)} vs Keel ${ratio(keel42)}`);

    const keel200 = await play(200_000);
    const changing = await play(200_000, 'changing-system');
    assert.ok(ratio(changing) > ratio(keel200) * 2, `a changing system prompt ${ratio(changing)} vs Keel ${ratio(keel200)}`);
    assert.ok(ratio(keel200) <= 1.1 && ratio(keel42) <= 1.1, `200k ${ratio(keel200)}, 42k ${ratio(keel42)}`);
    assert.equal(keel42.model.blindEdits + keel200.model.blindEdits, 0);
  });

  it('at an 8k window the task still finishes with every edit made on text the request showed', async () => {
    const run = await play(8_000);
    assert.equal(run.status, 'completed');
    assert.ok(run.testsPass, 'the bugs were fixed');
    assert.equal(run.model.blindEdits, 0);
  });
});
