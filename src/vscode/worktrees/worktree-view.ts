// VS Code's side of the worktree sessions panel (src/host/worktrees/worktree-panel.ts): the rows
// are posted to the chat view, Review opens VS Code's diff editor for each changed file (the
// base's version against the worktree's, a new or deleted file opened alone) after a summary,
// Discard asks in a modal, and what Apply did is said in a notification. Sessions are looked up
// for the first folder's repository, in the same Keel folder `keel run --worktree` uses.
import * as vscode from 'vscode';
import { type ReviewFile, WorktreePanel } from '../../host/worktrees/worktree-panel.js';
import { findRepo, runGit, sessionLayout } from '../../node/worktrees/index.js';
import type { HostMessage, WorktreeAction } from '../../protocol/index.js';
import type { KeelLog } from '../keel-log.js';

export interface WorktreeView {
  refresh(): Promise<void>;
  act(name: string, action: WorktreeAction): Promise<void>;
}

export function worktreeView(root: string | undefined, post: (m: HostMessage) => void, log: KeelLog): WorktreeView {
  let panel: Promise<WorktreePanel | undefined> | undefined;
  const open = () => {
    panel ??= root ? makePanel(root, post) : Promise.resolve(undefined);
    return panel;
  };
  return {
    // A listing that fails (git gone, an unreadable folder) costs only the panel, never the view.
    refresh: async () => {
      await (await open())?.refresh().catch((err: Error) => log.warn(`could not list the worktree sessions: ${err.message}`));
    },
    act: async (name, action) => {
      const p = await open();
      if (!p) return log.warn(`ignored ${action} of the worktree session ${name}: the folder is not in a git repository`);
      await p.act(name, action);
    },
  };
}

async function makePanel(root: string, post: (m: HostMessage) => void): Promise<WorktreePanel | undefined> {
  const found = await findRepo(runGit, root);
  if (found.type === 'not_repo') return undefined;
  return new WorktreePanel(found.repo, sessionLayout(found.repo), {
    post: (sessions) => post({ type: 'worktrees/list', ...sessions }),
    confirm: async (question) => (await vscode.window.showWarningMessage(question, { modal: true }, 'Discard')) === 'Discard',
    openDiffs,
    tell: (message) => void vscode.window.showInformationMessage(message),
  });
}

async function openDiffs(session: string, files: readonly ReviewFile[]): Promise<void> {
  void vscode.window.showInformationMessage(`Keel: ${session} changed ${files.length} file(s): ${files.map((f) => f.path).join(', ')}`);
  for (const file of files) {
    const title = `Keel: ${session} — ${file.path} (base ↔ session)`;
    if (file.before && file.after)
      await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(file.before), vscode.Uri.file(file.after), title, {
        preview: false,
      });
    else await vscode.window.showTextDocument(vscode.Uri.file(file.after ?? file.before!), { preview: false });
  }
}
