// The editor's answer to "may the workspace's hooks run?": only in a trusted workspace, and only
// once the user allowed that exact set of definitions in a modal that shows every command (the
// same gate as a workspace's MCP servers: remembered per workspace by hash, asked again when the
// files change). The user's own hooks (Keel's config folder) never ask.
import type { HookSettings } from '../../compose/hooks/hook-port.js';
import type { HookDefinition } from '../../compose/hooks/hook-file.js';
import { visibleText } from '../../kernel/index.js';
import type { ApprovalQuestion, WorkspaceApprovals } from './workspace-approvals.js';

export const ALLOW_HOOKS = 'Allow hooks';
/** How many definitions the modal lists before it says how many more there are. */
const SHOWN = 12;

export function hookApproval(approvals: Pick<WorkspaceApprovals, 'ask'>): HookSettings['allowWorkspace'] {
  return (hooks, hash) => approvals.ask(hash, hookQuestion(hooks));
}

export function hookQuestion(hooks: readonly HookDefinition[]): ApprovalQuestion {
  const lines = hooks
    .slice(0, SHOWN)
    .map((h) => `${h.point}${h.matcher ? ` [${visibleText(h.matcher)}]` : ''}: ${visibleText(h.command)}  (${h.file}:${h.line})`);
  const more = hooks.length > SHOWN ? [`… and ${hooks.length - SHOWN} more`] : [];
  const files = [...new Set(hooks.map((h) => h.file))].join(', ');
  return {
    message: `The workspace defines ${hooks.length} hook${hooks.length === 1 ? '' : 's'} (${files}). Run them?`,
    detail: `Keel would run these commands on this machine at the points named, with the task's tool calls on their input:\n\n${[...lines, ...more].join('\n')}\n\nA hook can block a call or add text for the model; it never approves one. You are asked again if they change.`,
    accept: ALLOW_HOOKS,
    untrusted: 'Keel runs hooks a workspace defines only once you trust the workspace.',
  };
}
