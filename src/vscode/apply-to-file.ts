// Apply to file… on a code block in an answer: the user picks the file (the active editor's
// first, then the workspace's files), the policy and the plan run (apply-plan.ts), the change is
// shown in the same diff as an agent's edit with the same Approve / Reject, and only Approve
// writes it (atomically, undoably, and only if the file did not change meanwhile).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isKeelTempPath, type ApprovalPolicy } from '../kernel/index.js';
import { planApply, writeApproved } from './apply-plan.js';
import type { DiffApprovals } from './diff-approvals.js';
import { proposalUri } from './proposed-content.js';
import type { VscodeWorkspace } from './vscode-workspace.js';

export interface ApplyToFileDeps {
  workspace(): VscodeWorkspace | undefined;
  policy(): ApprovalPolicy;
  diffs: DiffApprovals;
  log(message: string): void;
}

const MAX_PICK_FILES = 5000;

export async function applyToFile(text: string, deps: ApplyToFileDeps): Promise<void> {
  const workspace = deps.workspace();
  if (!workspace) {
    void vscode.window.showInformationMessage('Keel: open a folder to apply code to one of its files.');
    return;
  }
  const target = await pickTarget();
  if (target === undefined) return;
  const review = await planApply(target, text, { workspace, policy: deps.policy() });
  if (review.kind === 'refused') {
    void vscode.window.showWarningMessage(`Keel did not apply the code: ${review.reason}`);
    return;
  }
  if (review.kind === 'unchanged') {
    void vscode.window.showInformationMessage(`${review.rel} already has this content.`);
    return;
  }
  // The diff is the question; the notification says why it asks and offers the same answers.
  const id = `apply-${randomUUID()}`;
  const shown = deps.diffs.review(id, review.rel, !review.created, review.newText);
  void vscode.window.showInformationMessage(`Apply the code block to ${review.rel}? ${review.reason}`, 'Approve', 'Reject').then((pick) => {
    if (pick) deps.diffs.decide(pick === 'Approve', proposalUri(review.rel, id));
  });
  if (!(await shown)) return;
  const outcome = await writeApproved(review, workspace);
  if (outcome.ok) await vscode.window.showTextDocument(await workspace.uri(outcome.rel), { preview: true });
  else void vscode.window.showWarningMessage(`Keel did not apply the code: ${outcome.reason}`);
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
    placeHolder: 'The file whose whole content the code block replaces (you review the diff first)',
    matchOnDescription: true,
  });
  return pick?.rel;
}
