// Which tools a task is offered and the policy that decides each call: the tools' own
// definitions and policy from src/tools, configured from Keel's settings. Workspace trust is
// applied by the kernel through each tool's visibility rule (no write/execute when untrusted).
import type { ApprovalPolicy, CommandShell, ToolDefinition } from '../kernel/index.js';
import { createPolicy, toolsFor } from '../tools/index.js';
import type { KeelSettings } from './settings.js';

/** `shell`: the one the workspace runs commands with, named in run_command's description. */
export function keelTools(shell?: CommandShell): ToolDefinition[] {
  return toolsFor(shell);
}

export function keelPolicy(settings: KeelSettings): ApprovalPolicy {
  return createPolicy({
    autoApprove: settings.autoApprove,
    commandRules: { allow: settings.commandsAllow, deny: settings.commandsDeny },
  });
}
