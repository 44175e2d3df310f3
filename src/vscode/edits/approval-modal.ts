// The workspace-approval gate (workspace-approvals.ts) on VS Code: approvals kept in the
// workspace's state, asked in a modal warning, trust from VS Code's workspace trust.
import * as vscode from 'vscode';
import { WorkspaceApprovals } from '../../host/settings/workspace-approvals.js';

export function workspaceApprovals(context: vscode.ExtensionContext, stateKey: string): WorkspaceApprovals {
  return new WorkspaceApprovals(context.workspaceState, stateKey, () => vscode.workspace.isTrusted, {
    confirm: async (message, detail, accept) =>
      (await vscode.window.showWarningMessage(message, { modal: true, detail }, accept)) === accept,
    warn: (message) => void vscode.window.showWarningMessage(message),
  });
}
