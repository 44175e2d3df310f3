// The panel says while the code index parses the workspace, with its counts, and drops the line
// once the host clears it.
import './dom-env.js';
import assert from 'node:assert/strict';
import { makeApp } from './dom-env.js';
import { snapshot } from './fixtures.js';

const quiet = { noApiKey: false, restricted: false, canResume: false };

describe('webview: the indexing line', () => {
  it('shows the index parsing so many of so many files', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...quiet, indexing: { parsed: 1234, total: 2332 } } }));
    t.frame();
    const line = t.root.querySelector<HTMLElement>('[data-notice="indexing"]');
    assert.ok(line && !line.hidden, 'the indexing line shows');
    assert.equal(line.textContent?.trim(), 'Indexing the workspace: 1,234 of 2,332 files…');
  });

  it('is hidden when the index is not parsing', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: quiet }));
    t.frame();
    assert.equal(t.root.querySelector<HTMLElement>('[data-notice="indexing"]')?.hidden, true);
  });
});
