// The editor's answer to "may the workspace's hooks run?": only in a trusted workspace, and only
// once the user allowed that exact set of definitions in a modal that shows every command and the
// files they run (the same gate as a workspace's MCP servers: remembered per workspace by a hash
// over the definitions and those files' bytes, asked again when any of it changes — a script a
// test run or the model rewrote asks). They run in the test-run sandbox. The user's own hooks
// (Keel's config folder) never ask.
import type { HookSettings } from '../../compose/hooks/hook-port.js';
import type { HookDefinition } from '../../compose/hooks/hook-file.js';
import type { HookScript } from '../../compose/hooks/hook-scripts.js';
import { visibleText } from '../../kernel/index.js';
import type { ApprovalQuestion, WorkspaceApprovals } from './workspace-approvals.js';

export const ALLOW_HOOKS = 'Allow hooks';
/** How many definitions the modal lists before it says how many more there are. */
const SHOWN = 12;

export function hookApproval(approvals: Pick<WorkspaceApprovals, 'ask'>): HookSettings['allowWorkspace'] {
  return (hooks, hash, scripts) => approvals.ask(hash, hookQuestion(hooks, scripts));
}

export function hookQuestion(hooks: readonly HookDefinition[], scripts: readonly HookScript[] = []): ApprovalQuestion {
  const lines = hooks
    .slice(0, SHOWN)
    .map((h) => `${h.point}${h.matcher ? ` [${visibleText(h.matcher)}]` : ''}: ${visibleText(h.command)}  (${h.file}:${h.line})`);
  const more = hooks.length > SHOWN ? [`… and ${hooks.length - SHOWN} more`] : [];
  const files = [...new Set(hooks.map((h) => h.file))].join(', ');
  const ran = scripts.length > 0 ? `\n\nThe files they run, as they are now: ${scripts.map((s) => visibleText(s.path)).join(', ')}.` : '';
  return {
    message: `The workspace defines ${hooks.length} hook${hooks.length === 1 ? '' : 's'} (${files}). Run them?`,
    detail: `Keel would run these commands on this machine at the points named, with the task's tool calls on their input, in the sandbox a test run gets (no network, your home hidden):\n\n${[...lines, ...more].join('\n')}${ran}\n\nA hook can block a call or add text for the model; it never approves one. You are asked again if they or the files they run change.`,
    accept: ALLOW_HOOKS,
    untrusted: 'Keel runs hooks a workspace defines only once you trust the workspace.',
  };
}
