// The diff tabs after a review: the edited file is shown where no second tab of it keeps the
// diff's side group open (closed with the diff), and a checkpoint comparison is titled in words
// the transcript shows — never "step 3", which the view numbers nowhere.
import assert from 'node:assert/strict';
import { afterDecision, compareTitle, fileGroupAfterDiff } from '../../../src/host/edits/diff-tabs.js';

const FILE = 'file:///ws/src/app.ts';

describe('host: the diff tabs after a review', () => {
  it('opens no second tab of a file already open: the side group closes with the diff', () => {
    const tabs = [
      { group: 1, file: FILE },
      { group: 2, file: undefined },
    ];
    assert.equal(fileGroupAfterDiff(tabs, 2, FILE), undefined);
  });

  it('shows a file not open yet in the group the diff was opened beside, not in the side group', () => {
    const tabs = [
      { group: 1, file: 'file:///ws/README.md' },
      { group: 2, file: undefined },
    ];
    assert.equal(fileGroupAfterDiff(tabs, 2, FILE), 1);
    assert.equal(fileGroupAfterDiff([{ group: 1, file: undefined }], 1, FILE), 1, 'the diff was the only editor: its place');
  });

  it('closes the side group the diff held alone when the file was open already: the file stays once', () => {
    const tabs = [
      { group: 1, file: FILE },
      { group: 2, file: undefined, diff: true },
    ];
    for (const landed of [true, false]) assert.deepEqual(afterDecision(tabs, FILE, landed), { showIn: undefined, closeGroups: [2] });
  });

  it('shows a landed file beside, closes the diff’s group; keeps a group that holds more than the diff', () => {
    const readme = { group: 1, file: 'file:///ws/README.md' };
    assert.deepEqual(afterDecision([readme, { group: 2, file: undefined, diff: true }], FILE, true), { showIn: 1, closeGroups: [2] });
    const shared = [readme, { group: 2, file: 'file:///ws/notes.md' }, { group: 2, file: undefined, diff: true }];
    assert.deepEqual(afterDecision(shared, FILE, false), { showIn: undefined, closeGroups: [] });
  });

  it('never closes the last group: a diff that was the only editor gives its place to the file', () => {
    const alone = [{ group: 1, file: undefined, diff: true }];
    assert.deepEqual(afterDecision(alone, FILE, true), { showIn: 1, closeGroups: [] });
    assert.deepEqual(afterDecision(alone, FILE, false), { showIn: undefined, closeGroups: [] });
  });

  it('titles a comparison by the checkpoint’s files or the run, never a step number', () => {
    assert.equal(compareTitle(['src/app.ts'], false), 'Keel: app.ts at the checkpoint ↔ now');
    assert.equal(compareTitle(['a.ts', 'b.ts', 'c.ts'], false), 'Keel: a.ts and 2 more at the checkpoint ↔ now');
    assert.equal(compareTitle(['a.ts'], true), 'Keel: before this run ↔ now');
    for (const title of [compareTitle(['a.ts'], false), compareTitle(['a.ts'], true)]) assert.doesNotMatch(title, /step|\d/);
  });
});
