// Edits are reviewed in VS Code's diff editor before they land: when an edit intent waits for
// approval (any tool that declares kind `edit` with a preview), its proposed content (the tool's
// preview on the file's current bytes, nothing written) opens beside the file; Approve / Reject
// sit in the diff's title bar and on the intent's card. The diff only shows: its buttons go to
// the one approval decider (Session.decideApproval), which claims the task's lock first.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { endsRun, type RuntimeOutput, type ToolIntent } from '../../kernel/contracts/index.js';
import { findIntent } from '../../kernel/state-queries.js';
import { intentIdOf, proposalUri, type ProposedContentProvider } from './proposed-content.js';
import type { Task } from '../../host/tasks/task.js';
import type { VscodeWorkspace } from '../workspace/vscode-workspace.js';
import type { EditPreviews } from '../../host/edits/edit-plans.js';
import type { ApprovalDecision } from '../../compose/approval-decision.js';
import { afterDecision, type OpenTab } from '../../host/edits/diff-tabs.js';

interface Proposal {
  /** The task whose edit intent this is; none for a user's Apply to file… (apply-to-file.ts). */
  task?: Task;
  /** Approve or reject; false when there is nothing left to decide. */
  decide(approve: boolean): boolean;
  proposed: vscode.Uri;
  original: vscode.Uri;
  /** The real file. */
  file: vscode.Uri;
}

export interface DiffApprovalsDeps {
  content: ProposedContentProvider;
  workspace(): VscodeWorkspace | undefined;
  /** Plans an edit intent with its tool's preview, and keeps the plan for the call (edit-plans.ts). */
  previews: EditPreviews;
  log(message: string): void;
  /** A plan failed (the edit cannot apply): shown to the user, the card still decides. */
  warn(message: string): void;
  /**
   * The one approval decider (Session.decideApproval): it claims the task's lock (task-lock.ts)
   * before deciding, whichever task the diff belongs to. The diff only shows the question.
   */
  decide(task: Task, intentId: string, decision: ApprovalDecision): Promise<boolean>;
}

export class DiffApprovals implements vscode.Disposable {
  private readonly proposals = new Map<string, Proposal>();

  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: DiffApprovalsDeps) {
    // Approve / Reject show in the title bar of a proposal's diff (package.json `editor/title`).
    const track = () => void this.updateContext();
    this.subscriptions.push(vscode.window.tabGroups.onDidChangeTabs(track), vscode.window.tabGroups.onDidChangeTabGroups(track));
  }

  /** Follows a task: opens the diff when an edit waits, closes it when it is decided. */
  watch(task: Task): () => void {
    return task.runtime.subscribe((out) => this.onOutput(task, out));
  }

  /** Opens (or focuses) the diff of an edit intent. False when the intent edits no file. */
  async show(task: Task, intentId: string, focus: boolean): Promise<boolean> {
    const intent = findIntent(task.getState(), intentId)?.intent;
    const ws = this.deps.workspace();
    if (!intent || !ws) return false;
    // The tool's preview (planned by its precheck, or now): the diff shows it, the call writes it.
    const prepared = await this.deps.previews.forDiff(intent, task.runtime.tool?.(intent.tool), ws);
    if (!prepared) return false;
    const { rel, exists, outcome: plan } = prepared;
    if (!plan.ok) {
      this.deps.warn(`Keel cannot show the proposed edit to ${rel}: ${plan.message}`);
      return false;
    }
    const fileUri = await ws.uri(rel);
    const proposed = proposalUri(rel, intentId, 'proposed');
    const original = exists ? fileUri : proposalUri(rel, intentId, 'original');
    this.deps.content.set(proposed, plan.content);
    if (!exists) this.deps.content.set(original, '');
    const decide = (approve: boolean) => this.decideIntent(task, intent, approve);
    this.proposals.set(intentId, { task, decide, proposed, original, file: fileUri });
    await this.openDiff(rel, exists, original, proposed, focus);
    return true;
  }

  /**
   * The user clicked an intent's card: a waiting edit shows its diff (focused); a decided one
   * opens the file as it is now — its proposal is over, so there is nothing to compare.
   * False when the intent edits no file.
   */
  async focus(task: Task, intentId: string): Promise<boolean> {
    const intent = findIntent(task.getState(), intentId)?.intent;
    if (!intent) return false;
    if (intent.status === 'awaiting_approval' || intent.status === 'proposed') return this.show(task, intentId, true);
    const rel = intent.paths[0];
    const ws = this.deps.workspace();
    if (!rel || !ws || task.runtime.tool?.(intent.tool)?.kind !== 'edit') return false;
    if ((await ws.stat(rel))?.type !== 'file') return false;
    await vscode.window.showTextDocument(await ws.uri(rel), { preview: true, preserveFocus: false });
    return true;
  }

  /** The active editor is the diff of a proposal still open (the approval keys decide it). */
  hasActiveProposal(): boolean {
    return this.activeProposal() !== undefined;
  }

  /** Approve / Reject from the diff's title bar (uri) or the palette (the active proposal). */
  decide(approve: boolean, uri?: vscode.Uri): boolean {
    const proposal = this.find(uri);
    if (!proposal) {
      void vscode.window.showInformationMessage('There is no proposed edit waiting for approval.');
      return false;
    }
    if (proposal.decide(approve)) return true;
    const id = intentIdOf(proposal.proposed);
    if (id) void this.settle(id);
    return false;
  }

  /**
   * A change the user asked for (Apply to file…): the same diff, the same Approve / Reject. Resolves
   * true on Approve; false on Reject or when the diff is closed undecided. Writes nothing itself:
   * on Approve the diff stays until the caller wrote the file and calls `settle(id, written)`, so
   * the file takes the diff's place as an agent's edit does (never a second tab in its group).
   */
  async review(id: string, rel: string, exists: boolean, proposedText: string): Promise<boolean> {
    const ws = this.deps.workspace();
    if (!ws) return false;
    const file = await ws.uri(rel);
    const proposed = proposalUri(rel, id, 'proposed');
    const original = exists ? file : proposalUri(rel, id, 'original');
    this.deps.content.set(proposed, proposedText);
    if (!exists) this.deps.content.set(original, '');
    let answer: (approved: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((resolve) => {
      answer = resolve;
    });
    let open = true;
    const decide = (approve: boolean) => {
      if (!open) return false;
      open = false;
      answer(approve);
      if (!approve) void this.settle(id);
      return true;
    };
    this.proposals.set(id, { decide, proposed, original, file });
    await this.openDiff(rel, exists, original, proposed, true);
    // Closing the diff without deciding is a Reject.
    const closed = vscode.window.tabGroups.onDidChangeTabs(() => {
      if (!this.diffTabs(proposed).length) decide(false);
    });
    return decided.finally(() => closed.dispose());
  }

  private decideIntent(task: Task, intent: ToolIntent, approve: boolean): boolean {
    const status = findIntent(task.getState(), intent.id)?.intent.status;
    if (status !== 'awaiting_approval' && status !== 'proposed') return false;
    const reason = 'The user rejected this edit in the diff editor.';
    const decision: ApprovalDecision = approve ? { approve: true, scope: 'once' } : { approve: false, reason };
    this.deps.decide(task, intent.id, decision).catch((err: unknown) => this.deps.log(`deciding ${intent.id} failed: ${String(err)}`));
    return true;
  }

  private async openDiff(rel: string, exists: boolean, original: vscode.Uri, proposed: vscode.Uri, focus: boolean): Promise<void> {
    await this.updateContext();
    const title = `${path.posix.basename(rel)} ${exists ? '' : '(new file) '}↔ Keel's proposal`;
    // Beside the editor in use; with no editor open, "beside" would leave an empty group.
    const anyEditor = vscode.window.tabGroups.all.some((g) => g.tabs.length > 0);
    await vscode.commands.executeCommand('vscode.diff', original, proposed, title, {
      preview: true,
      preserveFocus: !focus,
      viewColumn: anyEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
    } satisfies vscode.TextDocumentShowOptions);
  }

  private diffTabs(proposed: vscode.Uri): vscode.Tab[] {
    return vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposed.toString());
  }

  /**
   * Closes an intent's diff and forgets its proposed content. `landed`: the edit is on disk, so
   * the file itself takes the diff's place (opened before the diff closes, its document stays
   * loaded and keeps the edit on its undo stack: Undo works there).
   */
  async settle(intentId: string, landed = false): Promise<void> {
    this.deps.previews.forget(intentId);
    const proposal = this.proposals.get(intentId);
    if (!proposal) return;
    this.proposals.delete(intentId);
    await this.updateContext();
    const diffTabs = () => this.diffTabs(proposal.proposed);
    // Shown where it does not keep the diff's side group open with the file twice.
    const plan = afterDecision(openTabs(proposal.proposed), proposal.file.toString(), landed);
    if (plan.showIn !== undefined) {
      await vscode.window
        .showTextDocument(proposal.file, { preview: true, preserveFocus: true, viewColumn: plan.showIn })
        .then(undefined, (err: unknown) => this.deps.log(`could not show ${proposal.file.fsPath}: ${String(err)}`));
    }
    // Looked up again: opening the file may have replaced or moved the diff's tab.
    const left = diffTabs();
    const failed = (what: string) => (err: unknown) => this.deps.log(`could not close ${what}: ${String(err)}`);
    if (left.length > 0) await vscode.window.tabGroups.close(left, true).then(undefined, failed('a diff'));
    // A side group the diff held alone, if VS Code kept it (workbench.editor.closeEmptyGroups off).
    const empty = vscode.window.tabGroups.all.filter((g) => g.tabs.length === 0 && plan.closeGroups.includes(g.viewColumn));
    if (empty.length > 0 && empty.length < vscode.window.tabGroups.all.length)
      await vscode.window.tabGroups.close(empty, true).then(undefined, failed('the diff’s group'));
    this.deps.content.forget(intentId);
    await this.updateContext();
  }

  /** Closes every open proposal (the task changed, the window closes). */
  async settleAll(): Promise<void> {
    for (const id of [...this.proposals.keys()]) await this.settle(id);
  }

  /**
   * Diff tabs on keel-proposed that VS Code restored after a reload have no content behind them
   * (proposals live in memory only): close them; a resumed run asks again and reopens its diff.
   */
  async closeOrphans(): Promise<void> {
    const orphans = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => {
        const input = t.input;
        if (!(input instanceof vscode.TabInputTextDiff) && !(input instanceof vscode.TabInputText)) return false;
        const uri = input instanceof vscode.TabInputTextDiff ? input.modified : input.uri;
        const id = intentIdOf(uri);
        return id !== undefined && !this.proposals.has(id);
      });
    if (orphans.length > 0) await vscode.window.tabGroups.close(orphans, true).then(undefined, () => undefined);
  }

  pending(): string[] {
    return [...this.proposals.keys()];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    void this.settleAll();
  }

  private activeProposal(): Proposal | undefined {
    const active = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (!(active instanceof vscode.TabInputTextDiff)) return undefined;
    const id = intentIdOf(active.modified);
    return id ? this.proposals.get(id) : undefined;
  }

  private find(uri?: vscode.Uri): Proposal | undefined {
    const byUri = uri ? intentIdOf(uri) : undefined;
    if (byUri) return this.proposals.get(byUri);
    const active = this.activeProposal();
    if (active) return active;
    const all = [...this.proposals.values()];
    return all[all.length - 1];
  }

  private onOutput(task: Task, out: RuntimeOutput): void {
    if (out.kind !== 'event') return;
    const e = out.event;
    if (e.type === 'approval_requested') {
      this.show(task, e.intentId, false).catch((err) => this.deps.log(`diff for ${e.intentId} failed: ${String(err)}`));
    } else if (e.type === 'intent_rejected') {
      void this.settle(e.intentId);
    } else if (e.type === 'observation') {
      // Closed only once the edit has landed: while the diff is open its documents stay loaded,
      // so the approved edit applies without VS Code reading the file again.
      void this.settle(e.observation.intentId, e.observation.ok);
    } else if (endsRun(e.type)) {
      for (const [id, p] of this.proposals) if (p.task === task) void this.settle(id);
    }
  }

  private async updateContext(): Promise<void> {
    const active = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const id = active instanceof vscode.TabInputTextDiff ? intentIdOf(active.modified) : undefined;
    await vscode.commands.executeCommand('setContext', 'keel.hasProposedEdit', this.proposals.size > 0);
    await vscode.commands.executeCommand('setContext', 'keel.proposedEditActive', id !== undefined && this.proposals.has(id));
  }
}

/** Every open tab: its group, the file it shows (a diff shows none), and whether it is `proposed`'s diff. */
function openTabs(proposed: vscode.Uri): OpenTab[] {
  const isDiff = (t: vscode.Tab) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposed.toString();
  return vscode.window.tabGroups.all.flatMap((g) =>
    g.tabs.map((t) => ({
      group: g.viewColumn,
      file: t.input instanceof vscode.TabInputText ? t.input.uri.toString() : undefined,
      ...(isDiff(t) ? { diff: true } : {}),
    })),
  );
}
