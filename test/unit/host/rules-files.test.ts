import assert from 'node:assert/strict';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { rulesFileToOpen } from '../../../src/host/settings/rules-files.js';

const used = (seq: number, paths: string[]) => ({ type: 'rules_used', paths, seq, runId: 'r', time: 0 }) as RuntimeEvent;

describe('host/rules-files: what a click on the Rules line may open', () => {
  const events = [used(1, ['AGENTS.md', 'old.md']), used(5, ['AGENTS.md', '.keel/rules/style.md'])];

  it('opens a rules file the shown task used (its latest list)', () => {
    assert.equal(rulesFileToOpen(events, 'AGENTS.md'), 'AGENTS.md');
    assert.equal(rulesFileToOpen(events, '.keel/rules/style.md'), '.keel/rules/style.md');
    assert.equal(rulesFileToOpen(events, 'old.md'), undefined, 'a list the task no longer uses');
  });

  it('never opens a path the task did not use, whatever the webview sends', () => {
    for (const path of ['package.json', '../secrets.txt', '/etc/passwd', 'C:\\Windows\\win.ini', '', '.keel/rules/../../x'])
      assert.equal(rulesFileToOpen(events, path), undefined, path);
    assert.equal(rulesFileToOpen([], 'AGENTS.md'), undefined, 'a task without rules');
  });

  it('refuses a listed path that climbs out or is absolute (a hand-edited log)', () => {
    const odd = [used(1, ['../outside.md', '/abs/AGENTS.md', 'a//b.md'])];
    for (const path of ['../outside.md', '/abs/AGENTS.md', 'a//b.md']) assert.equal(rulesFileToOpen(odd, path), undefined, path);
  });
});
