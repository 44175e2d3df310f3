// The words `keel worktree` prints: one line per session (name, branch, status, files changed,
// cost against its cap), the untracked worktrees to clean up, and what an apply did or refused.
import type { ApplyOutcome, SessionListing, SessionRecord, SessionRow } from '../node/worktrees/index.js';

export function listingLines(listing: SessionListing): string[] {
  const lines = listing.sessions.map(sessionLine);
  if (lines.length === 0) lines.push('No worktree sessions.');
  for (const t of listing.untracked)
    lines.push(`not tracked by Keel: ${t.path} (${t.branch ?? 'detached'}); remove it with: git worktree remove ${t.path}`);
  for (const file of listing.unreadable) lines.push(`keel: skipped an unreadable session record: ${file}`);
  return lines;
}

function sessionLine(row: SessionRow): string {
  const r = row.record;
  const files = row.filesChanged === undefined ? 'files unknown' : `${row.filesChanged} file${row.filesChanged === 1 ? '' : 's'} changed`;
  return `${r.name}  ${r.branch}  ${row.status}  ${files}  ${spendLine(r)}`;
}

/** "$0.0123 of $1.00 cap", "1,200 tokens of 50,000 cap", or the spend with "no cap". */
function spendLine(r: SessionRecord): string {
  const cost = typeof r.costUsd === 'number' ? `$${r.costUsd.toFixed(4)}` : '$0';
  const parts: string[] = [];
  if (r.caps.usd !== undefined) parts.push(`${cost} of $${r.caps.usd.toFixed(2)} cap`);
  if (r.caps.tokens !== undefined)
    parts.push(`${(r.tokens ?? 0).toLocaleString('en-US')} tokens of ${r.caps.tokens.toLocaleString('en-US')} cap`);
  return parts.length ? parts.join(', ') : `${cost}, no cap`;
}

export function describeOutcome(record: SessionRecord, outcome: ApplyOutcome): string {
  switch (outcome.type) {
    case 'nothing':
      return `${record.name} changed nothing: there is nothing to apply.`;
    case 'applied':
      return `Applied ${record.name} to the main folder: ${outcome.files.join(', ')} (not committed).`;
    case 'merged':
      return `Merged ${record.branch} into the main folder's branch: ${outcome.files.join(', ')}.`;
    case 'merge_conflict':
      return `Merged ${record.branch} with conflicts in ${outcome.files.join(', ')}: git's markers are in those files; resolve and commit, or run git merge --abort.`;
    case 'conflict':
      return [
        `Not applied: the main folder changed the same lines${outcome.files.length ? ` in ${outcome.files.join(', ')}` : ''} (${outcome.detail}).`,
        `Nothing was written; both sides are intact. Review it with keel worktree diff ${record.name}, or merge with conflict markers: keel worktree apply ${record.name} --merge.`,
      ].join('\n');
  }
}
