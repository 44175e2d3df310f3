// How a command the policy lets run is run: the sandbox profile that goes with the decision.
// Commands that run unasked (read-only and test-run classes, allow rules) run in the OS sandbox,
// or ask when there is none; commands the user approved run as the user's shell would run them,
// unless the user chose to sandbox everything. With the sandbox off, nothing is sandboxed and
// the classifier alone decides what runs unasked — but for the lines it says are safe only
// inside the sandbox (a Makefile's recipes, .venv/bin/python), which then ask.
import type { PolicyDecision, SandboxMode, SandboxProfile, Workspace } from '../../kernel/index.js';
import type { CommandClassification } from './command-class.js';

/** A command that would run unasked: how it runs, or why it asks instead. */
export function unaskedRun(
  cls: CommandClassification,
  mode: SandboxMode,
  workspace: Workspace | undefined,
  reason: string,
  byRule = false,
): PolicyDecision {
  const inside = cls.sandboxOnly ? ` The command ${cls.sandboxOnly}: it runs unasked only inside the sandbox.` : '';
  if (mode === 'off')
    return inside ? { type: 'ask', reason: `The sandbox is off.${inside}`, sandbox: 'none' } : { type: 'allow', reason, sandbox: 'none' };
  const status = workspace?.sandbox?.status() ?? { type: 'unavailable', reason: 'this host runs no sandbox' };
  if (status.type !== 'ready')
    return {
      type: 'ask',
      reason: `No sandbox is available (${status.reason}), so every command asks before it runs.${inside}`,
      sandbox: approvedRun(mode),
    };
  return { type: 'allow', reason, sandbox: unaskedProfile(cls, byRule) };
}

/** Read-only commands see a read-only workspace; test runs and commands the user allowed by rule may write in it. */
function unaskedProfile(cls: CommandClassification, byRule: boolean): SandboxProfile {
  return cls.type === 'read_only' && !byRule ? 'read_only' : 'test_run';
}

/** How a command the user approved (or pre-approved with every kind of command) runs. */
export function approvedRun(mode: SandboxMode): SandboxProfile {
  return mode === 'everything' ? 'test_run' : 'none';
}
