// keel run's "card" for a checkpoint (issue 22, item 3): a step whose checkpoint left a file out
// for its size says so on the terminal — that change cannot be restored — not only in the log.
import assert from 'node:assert/strict';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { renderEvent } from '../../../src/cli/render.js';

function printed(event: RuntimeEvent): string[] {
  const lines: string[] = [];
  renderEvent({ out: (t) => lines.push(t), line: (t) => lines.push(t) }, event, () => undefined);
  return lines;
}

describe('cli: checkpoints on the terminal', () => {
  const checkpoint = (files: Extract<RuntimeEvent, { type: 'checkpoint_recorded' }>['files']) =>
    ({ type: 'checkpoint_recorded', seq: 7, runId: 'r', time: 0, step: 3, kind: 'step', intentIds: ['i'], files }) as RuntimeEvent;

  it('names a file the checkpoint did not keep, and its size', () => {
    const lines = printed(
      checkpoint([
        { path: 'src/a.ts', before: 'a', after: 'b' },
        { path: 'data/big.bin', before: 'c', after: 'd', skipped: { reason: 'too_large', size: 210 * 1024 * 1024 } },
      ]),
    );
    assert.deepEqual(lines, [
      '! the checkpoint of step 3 did not keep data/big.bin (210.0 MB): over the size cap, so that change cannot be restored',
    ]);
  });

  it('prints nothing for a checkpoint that kept every file', () => {
    assert.deepEqual(printed(checkpoint([{ path: 'src/a.ts', before: 'a', after: 'b' }])), []);
  });
});
