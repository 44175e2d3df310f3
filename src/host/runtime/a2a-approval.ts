// Which remote A2A agents a task of the extension is offered: every agent of the user's a2a.json,
// and an agent of the workspace's .keel/a2a.json only once it passed the workspace-approval gate
// (a trusted workspace, the exact definition approved). And the question that gate asks: the
// agent's exact URL, the headers it would send and what the model would be told. No vscode import.
import { a2aDefinitionKey, type A2aAgentConfig } from '../../a2a/index.js';
import type { ApprovalQuestion, WorkspaceApprovals } from '../settings/workspace-approvals.js';

const ALLOW_AGENT = 'Allow Agent';

export function offeredA2aAgents(agents: readonly A2aAgentConfig[], approvals: Pick<WorkspaceApprovals, 'allows'>): A2aAgentConfig[] {
  return agents.filter((a) => a.source === 'user' || approvals.allows(a2aDefinitionKey(a)));
}

/** The workspace's agents still waiting for the user's approval. */
export function waitingA2aAgents(agents: readonly A2aAgentConfig[], approvals: Pick<WorkspaceApprovals, 'allows'>): A2aAgentConfig[] {
  return agents.filter((a) => a.source === 'workspace' && !approvals.allows(a2aDefinitionKey(a)));
}

export function a2aApprovalQuestion(agent: A2aAgentConfig): ApprovalQuestion {
  const headers = Object.keys(agent.definition.headers);
  const lines = [
    `${agent.file} asks Keel to offer the model a remote agent at:`,
    '',
    agent.definition.url,
    '',
    headers.length ? `Each request sends the headers ${headers.join(', ')}.` : 'Requests send no extra headers.',
    `Described to the model as: ${agent.definition.description ?? '(no description)'}`,
    '',
    'A call sends the brief the model writes to that address, and asks first unless you approved network use. You are asked again if this definition changes.',
  ];
  return {
    message: `Allow the workspace's remote agent "${agent.name}"?`,
    detail: lines.join('\n'),
    accept: ALLOW_AGENT,
    untrusted: 'Keel offers remote agents a workspace defines only once you trust the workspace.',
  };
}
