// Approve / Reject / Approve always from the keyboard (package.json binds them while the Keel
// view or a proposed edit's diff has focus). In a diff editor the keys decide that diff's edit;
// elsewhere they decide the oldest card of the shown task that waits for approval.
import * as vscode from 'vscode';
import type { ApprovalScope } from '../../kernel/contracts/index.js';
import type { DiffApprovals } from './diff-approvals.js';
import type { Session } from '../../host/session/session.js';

const APPROVAL_KEY_COMMANDS = {
  approve: 'keel.approvePending',
  reject: 'keel.rejectPending',
  approveForTask: 'keel.approvePendingForTask',
} as const;

type Decision = { approve: true; scope: ApprovalScope } | { approve: false };

export function registerApprovalKeys(session: Session, diffs: DiffApprovals): vscode.Disposable[] {
  const decide = (decision: Decision) => () => {
    if (decision.approve && decision.scope === 'once' && diffs.hasActiveProposal()) return diffs.decide(true);
    if (!decision.approve && diffs.hasActiveProposal()) return diffs.decide(false);
    const id = session.oldestPendingIntent();
    if (!id) {
      void vscode.window.showInformationMessage('Keel: nothing is waiting for approval.');
      return false;
    }
    if (decision.approve) session.approve(id, decision.scope);
    // No reason: the user typed none, and the card must not quote Keel's words as theirs.
    else session.reject(id);
    return true;
  };
  return [
    vscode.commands.registerCommand(APPROVAL_KEY_COMMANDS.approve, decide({ approve: true, scope: 'once' })),
    vscode.commands.registerCommand(APPROVAL_KEY_COMMANDS.reject, decide({ approve: false })),
    vscode.commands.registerCommand(APPROVAL_KEY_COMMANDS.approveForTask, decide({ approve: true, scope: 'task' })),
  ];
}
