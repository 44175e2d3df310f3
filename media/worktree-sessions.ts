// The side bar's worktree sessions: one row per session (name, branch, status in words, cost
// against its cap with a bar, files changed) with Review, Apply and Discard; worktrees Keel no
// longer tracks are named for cleanup. Hidden while there are none. Text only, never markup.
import type { WorktreeSessionRow, WorktreeSessions } from '../src/protocol/index.js';
import { actionButton, h, setHidden } from './dom.js';

export class WorktreeSessionsView {
  readonly el: HTMLElement;
  private readonly list = h('ul', { class: 'worktree-list' });

  constructor() {
    this.el = h(
      'div',
      { class: 'worktree-panel', attrs: { role: 'region', 'aria-label': 'Worktree sessions', 'data-testid': 'worktree-sessions' } },
      h('div', { class: 'worktree-title', text: 'Sessions in worktrees' }),
      this.list,
    );
    this.el.hidden = true;
  }

  update(value: WorktreeSessions): void {
    setHidden(this.el, value.sessions.length === 0 && value.untracked.length === 0);
    this.list.replaceChildren(
      ...value.sessions.map(sessionRow),
      ...value.untracked.map((p) =>
        h('li', { class: 'worktree-untracked', text: `Not tracked by Keel (remove with git worktree remove): ${p}` }),
      ),
    );
  }
}

function sessionRow(s: WorktreeSessionRow): HTMLElement {
  const files = s.filesChanged === undefined ? '' : ` · ${s.filesChanged} file${s.filesChanged === 1 ? '' : 's'} changed`;
  const bar = h('div', { class: 'worktree-bar', attrs: { role: 'meter', 'aria-label': `Budget used: ${spendText(s)}` } });
  if (s.spent !== undefined) bar.style.setProperty('--spent', `${Math.round(s.spent * 100)}%`);
  setHidden(bar, s.spent === undefined);
  const act = (action: string, label: string) =>
    actionButton('worktree-act', `${label} ${s.name}`, { text: label, data: { name: s.name, act: action }, testId: `worktree-${action}` });
  return h(
    'li',
    { class: 'worktree-row', attrs: { 'data-testid': 'worktree-row', 'data-name': s.name } },
    h('span', { class: 'worktree-name', text: `${s.name} · ${s.branch}` }),
    h('span', { class: 'worktree-meta', text: `${s.status}${files} · ${spendText(s)}` }),
    bar,
    h('span', { class: 'worktree-actions' }, act('review', 'Review'), act('apply', 'Apply'), act('discard', 'Discard')),
  );
}

function spendText(s: WorktreeSessionRow): string {
  const cost = `$${(s.costUsd ?? 0).toFixed(2)}`;
  if (s.capUsd !== undefined) return `${cost} of $${s.capUsd.toFixed(2)}`;
  if (s.capTokens !== undefined) return `${s.tokens.toLocaleString('en-US')} of ${s.capTokens.toLocaleString('en-US')} tokens`;
  return `${cost}, no cap`;
}
