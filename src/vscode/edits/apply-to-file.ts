// Apply on a code block in an answer: the user picks the file (the active editor's first, then
// the workspace's files); the block goes where it belongs in that file — the function or block it
// is a new version of (snippet-place.ts) — or, when that cannot be told, the user picks the place
// (a match, the whole file, the end). The policy and the plan run (apply-plan.ts), the change is
// shown in the same diff as an agent's edit, its card waits in the transcript with Approve /
// Reject (apply-cards.ts), and only Approve writes it (atomically, undoably, and only if the file
// did not change meanwhile).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isKeelTempPath, type ApprovalPolicy } from '../../kernel/index.js';
import type { ApplyCards } from '../../host/edits/apply-cards.js';
import { planApply, writeApproved } from '../../host/edits/apply-plan.js';
import type { DiffApprovals } from './diff-approvals.js';
import { proposalUri } from './proposed-content.js';
import { type LineRange, placeSnippet, replaceRange } from '../../host/edits/snippet-place.js';
import type { VscodeWorkspace } from '../workspace/vscode-workspace.js';

export interface ApplyToFileDeps {
  workspace(): VscodeWorkspace | undefined;
  policy(): ApprovalPolicy;
  diffs: DiffApprovals;
  cards: ApplyCards;
  log(message: string): void;
}

const MAX_PICK_FILES = 5000;

/** The file's new content with the block in its place, and how to say it; undefined: cancelled. */
interface Merged {
  content: string;
  summary: string;
}

export async function applyToFile(text: string, deps: ApplyToFileDeps): Promise<void> {
  const workspace = deps.workspace();
  if (!workspace) {
    void vscode.window.showInformationMessage('Keel: open a folder to apply code to one of its files.');
    return;
  }
  const target = await pickTarget();
  if (target === undefined) return;
  const current = await workspace
    .readFile(target)
    .then((b) => new TextDecoder().decode(b))
    .catch(() => undefined);
  const merged =
    current === undefined ? { content: text, summary: `Create ${target} with the code block` } : await merge(target, current, text);
  if (!merged) return;
  const review = await planApply(target, merged.content, { workspace, policy: deps.policy() });
  if (review.kind === 'refused') {
    void vscode.window.showWarningMessage(`Keel did not apply the code: ${review.reason}`);
    return;
  }
  if (review.kind === 'unchanged') {
    void vscode.window.showInformationMessage(`${review.rel} already has this content.`);
    return;
  }
  // The diff is the question; the card in the transcript waits with the same answers.
  const id = `apply-${randomUUID()}`;
  const shown = deps.diffs.review(id, review.rel, !review.created, review.newText);
  const reason = review.reason ?? 'Review the change in the diff editor.';
  deps.cards.open(id, { rel: review.rel, summary: merged.summary, reason }, (approve) => {
    deps.diffs.decide(approve, proposalUri(review.rel, id));
  });
  if (!(await shown)) return deps.cards.end(id, { type: 'rejected' }, review.rel);
  const outcome = await writeApproved(review, workspace);
  // The file takes the diff's place (not a tab in whatever group is active: the diff's side group).
  await deps.diffs.settle(id, outcome.ok);
  if (outcome.ok) {
    deps.cards.end(id, { type: 'applied' }, review.rel);
  } else {
    deps.cards.end(id, { type: 'failed', reason: outcome.reason }, review.rel);
    void vscode.window.showWarningMessage(`Keel did not apply the code: ${outcome.reason}`);
  }
}

/** The file with the block in the part it replaces; asks where when the block does not say. */
async function merge(rel: string, current: string, block: string): Promise<Merged | undefined> {
  const placed = placeSnippet(current, block);
  if (placed.kind === 'whole') return { content: block, summary: `Replace all of ${rel} with the code block` };
  if (placed.kind === 'range') return inRange(rel, current, block, placed.range);
  return askWhere(rel, current, block, placed.kind === 'ambiguous' ? placed.ranges : []);
}

function inRange(rel: string, current: string, block: string, range: LineRange): Merged {
  const lines = range.from === range.to ? `line ${range.from + 1}` : `lines ${range.from + 1}–${range.to + 1}`;
  return { content: replaceRange(current, range, block), summary: `Replace ${lines} of ${rel} (${range.label}) with the code block` };
}

type Place = vscode.QuickPickItem & { merged: () => Merged };

async function askWhere(rel: string, current: string, block: string, ranges: LineRange[]): Promise<Merged | undefined> {
  const items: Place[] = [
    ...ranges.map((r) => ({
      label: `Lines ${r.from + 1}–${r.to + 1}`,
      description: r.label,
      merged: () => inRange(rel, current, block, r),
    })),
    {
      label: 'At the end of the file',
      merged: () => ({
        content: `${current.replace(/\s*$/, '')}\n\n${block.replace(/\s*$/, '')}\n`,
        summary: `Add the code block at the end of ${rel}`,
      }),
    },
    { label: 'Replace the whole file', merged: () => ({ content: block, summary: `Replace all of ${rel} with the code block` }) },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: `Where does the code block go in ${rel}?`,
    placeHolder: ranges.length ? 'It starts like more than one part of the file' : 'Nothing in the file starts like it',
  });
  return pick?.merged();
}

/** The active editor's file first (when it is in the workspace), then the workspace's files. */
async function pickTarget(): Promise<string | undefined> {
  const items: (vscode.QuickPickItem & { rel: string })[] = [];
  const active = vscode.window.activeTextEditor?.document.uri;
  const activeRel = active?.scheme === 'file' ? vscode.workspace.asRelativePath(active, false) : undefined;
  if (activeRel && activeRel !== active?.fsPath) items.push({ label: activeRel, description: 'active editor', rel: activeRel });
  const files = await vscode.workspace.findFiles('**/*', undefined, MAX_PICK_FILES);
  for (const uri of files) {
    const rel = vscode.workspace.asRelativePath(uri, false);
    if (rel !== activeRel && !isKeelTempPath(rel)) items.push({ label: rel, rel });
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Apply the code block to…',
    placeHolder: 'The file to change: the block replaces the part it is a new version of (you review the diff first)',
    matchOnDescription: true,
  });
  return pick?.rel;
}
