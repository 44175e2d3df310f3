// The checkpoint items in the webview: the buttons post the right restore point, skipped files are
// noted, and a Files changed summary takes its line counts in place.
import './dom-env.js';
import assert from 'node:assert/strict';
import type { ChangesItem, CheckpointItem } from '../../../src/protocol/index.js';
import { click, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const step: CheckpointItem = {
  kind: 'checkpoint',
  id: 'k7',
  seq: 7,
  step: 2,
  restore: false,
  files: [
    { path: 'src/a.ts', change: 'modified' },
    { path: 'big.bin', change: 'modified', skippedBytes: 12 * 1024 * 1024 },
  ],
};
const summary: ChangesItem = {
  kind: 'changes',
  id: 's9',
  fromSeq: 4,
  toSeq: 7,
  files: [{ path: 'src/a.ts', change: 'modified' }],
};

function shown() {
  const t = makeApp();
  t.receive(snapshot([step, summary]));
  t.frame();
  t.posted.length = 0;
  return t;
}

describe('webview: checkpoints and Files changed', () => {
  it('a step is one quiet line whose one menu holds Compare and the three restores, each naming its point', () => {
    const t = shown();
    const item = q(t.root, '[data-testid="checkpoint"]');
    assert.match(q(item, '.checkpoint-title').textContent ?? '', /^Checkpoint · src\/a\.ts, big\.bin$/);
    assert.doesNotMatch(item.textContent ?? '', /Step \d|Restore both/, 'no internal step numbers or riddles');
    const menu = q<HTMLDetailsElement>(item, 'details.checkpoint-menu');
    assert.equal(menu.open, false, 'closed: one control on the line');
    assert.equal(item.querySelectorAll('button:not(details button)').length, 0, 'no button outside the menu');
    assert.equal(item.querySelectorAll('.button:not(.link)').length, 0, 'no filled button competing with Approve');
    click(q(item, '[data-testid="checkpoint-compare"]'));
    click(q(item, '[data-testid="restore-files"]'));
    click(q(item, '[data-testid="restore-task"]'));
    click(q(item, '[data-testid="restore-both"]'));
    assert.deepEqual(t.posted, [
      { type: 'checkpoint/compare', fromSeq: 7, toSeq: 7 },
      { type: 'checkpoint/restore', afterSeq: 7, mode: 'files' },
      { type: 'checkpoint/restore', afterSeq: 7, mode: 'task' },
      { type: 'checkpoint/restore', afterSeq: 7, mode: 'both' },
    ]);
  });

  it('says which files were too large to keep', () => {
    const t = shown();
    assert.match(q(t.root, '.checkpoint-note').textContent ?? '', /big\.bin \(12\.0 MB\)/);
  });

  it('a restore offers its undo: back to just before it', () => {
    const t = makeApp();
    t.receive(snapshot([{ ...step, id: 'k12', seq: 12, restore: true }]));
    t.frame();
    click(q(t.root, '[data-testid="undo-restore"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'checkpoint/restore', afterSeq: 11, mode: 'files' });
  });

  it('Files changed: a file opens the run’s diff, Undo restores to before the run, counts arrive in place', () => {
    const t = shown();
    click(q(t.root, '[data-testid="files-changed-file"]'));
    click(q(t.root, '[data-testid="undo-run"]'));
    assert.deepEqual(t.posted, [
      { type: 'checkpoint/compare', fromSeq: 4, toSeq: 7, path: 'src/a.ts' },
      { type: 'checkpoint/restore', afterSeq: 3, mode: 'files' },
    ]);
    const d = deltas();
    t.receive(d({ type: 'item/replace', item: { ...summary, files: [{ path: 'src/a.ts', change: 'modified', added: 3, removed: 1 }] } }));
    t.frame();
    const row = q(t.root, '[data-testid="files-changed"] li');
    assert.match(row.textContent ?? '', /src\/a\.ts \+3 −1/);
  });
});
