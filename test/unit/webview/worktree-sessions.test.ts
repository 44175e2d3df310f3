// The side bar's worktree sessions in the webview: hidden with none; a row per session with its
// status, files and cost against its cap (with the bar); Review, Apply and Discard post
// worktree/act; names and paths are shown as text, never markup.
import './dom-env.js';
import assert from 'node:assert/strict';
import { click, makeApp, q } from './dom-env.js';
import { snapshot } from './fixtures.js';

const row = { name: 'fix', branch: 'keel/fix', status: 'done', costUsd: 0.5, capUsd: 2, tokens: 900, spent: 0.25, filesChanged: 3 };

describe('webview: worktree sessions', () => {
  it('is hidden while there are no sessions', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.receive({ type: 'worktrees/list', sessions: [], untracked: [] });
    t.frame();
    assert.equal(q(t.root, '[data-testid="worktree-sessions"]').hidden, true);
  });

  it('shows each session’s name, branch, status, files and cost against its cap, and posts its actions', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.receive({
      type: 'worktrees/list',
      sessions: [row, { ...row, name: 'docs', branch: 'keel/docs', spent: undefined, capUsd: undefined, filesChanged: 1 }],
      untracked: [],
    });
    t.frame();
    const panel = q(t.root, '[data-testid="worktree-sessions"]');
    assert.equal(panel.hidden, false);
    const rows = [...panel.querySelectorAll<HTMLElement>('[data-testid="worktree-row"]')];
    assert.deepEqual(
      rows.map((r) => r.querySelector('.worktree-meta')?.textContent),
      ['done · 3 files changed · $0.50 of $2.00', 'done · 1 file changed · $0.50, no cap'],
    );
    assert.equal(rows[0]!.querySelector<HTMLElement>('.worktree-bar')!.style.getPropertyValue('--spent'), '25%');
    assert.equal(rows[1]!.querySelector<HTMLElement>('.worktree-bar')!.hidden, true);
    for (const action of ['review', 'apply', 'discard'] as const) {
      click(q(rows[0]!, `[data-testid="worktree-${action}"]`));
      assert.deepEqual(t.posted.at(-1), { type: 'worktree/act', name: 'fix', action });
    }
  });

  it('names untracked worktrees for cleanup, as text', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.receive({ type: 'worktrees/list', sessions: [], untracked: ['/x/<img src=x onerror=alert(1)>'] });
    t.frame();
    const panel = q(t.root, '[data-testid="worktree-sessions"]');
    assert.equal(panel.hidden, false);
    assert.equal(panel.querySelector('img'), null);
    assert.match(panel.textContent ?? '', /Not tracked by Keel .*<img src=x/);
  });
});
