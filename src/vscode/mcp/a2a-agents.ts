// The extension's remote A2A agents: the user's a2a.json (the file `keel run` reads) and the
// workspace's .keel/a2a.json, read through compose as the CLI reads them, each time a task's
// runtime is built. A workspace's agent is offered only in a trusted workspace once the user has
// allowed its exact definition in a modal naming its URL (the gate MCP servers pass, remembered
// per workspace by hash). Keel asks when it finds agents waiting, and on **Keel: Allow the
// Workspace's Remote Agents…**.
import * as vscode from 'vscode';
import { a2aDefinitionKey, type A2aAgentConfig } from '../../a2a/index.js';
import { a2aFiles, loadA2aConfigs } from '../../compose/index.js';
import { a2aApprovalQuestion, offeredA2aAgents, waitingA2aAgents } from '../../host/runtime/a2a-approval.js';
import { workspaceApprovals } from '../edits/approval-modal.js';

const APPROVED_STATE = 'keel.a2a.approved';
const REVIEW = 'Review…';

interface A2aDeps {
  context: vscode.ExtensionContext;
  workspaceRoot: string | undefined;
  log: { info(m: string): void; warn(m: string): void };
}

export function startA2a(d: A2aDeps): { agents(): A2aAgentConfig[]; disposables: vscode.Disposable[] } {
  const approvals = workspaceApprovals(d.context, APPROVED_STATE);
  const load = () => loadA2aConfigs(a2aFiles(d.workspaceRoot));
  const review = async () => {
    const waiting = waitingA2aAgents(load().agents, approvals);
    if (waiting.length === 0) void vscode.window.showInformationMessage('Keel: no remote agent of this workspace is waiting.');
    for (const agent of waiting) await approvals.ask(a2aDefinitionKey(agent), a2aApprovalQuestion(agent));
  };
  const tellWaiting = () => {
    const waiting = waitingA2aAgents(load().agents, approvals);
    if (waiting.length === 0 || !vscode.workspace.isTrusted) return;
    const names = waiting.map((a) => `"${a.name}"`).join(', ');
    d.log.info(`A2A: the workspace's .keel/a2a.json lists ${names}; offered once you allow each.`);
    void vscode.window
      .showInformationMessage(`Keel: this workspace lists remote agents (${names}); they are offered once you allow them.`, REVIEW)
      .then((pick) => (pick === REVIEW ? review() : undefined));
  };
  for (const p of load().problems) d.log.warn(`A2A config ${p.file}${p.agent ? ` (agent "${p.agent}")` : ''}: ${p.message}`);
  tellWaiting();
  return {
    agents: () => offeredA2aAgents(load().agents, approvals),
    disposables: [vscode.commands.registerCommand('keel.a2a.approve', review), vscode.workspace.onDidGrantWorkspaceTrust(tellWaiting)],
  };
}
