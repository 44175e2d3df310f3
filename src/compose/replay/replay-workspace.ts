// The workspace a replay plays its recorded calls in: the scratch copy, where every command runs in
// the OS sandbox whatever the policy or the recording decided — a recorded command the user once
// approved unsandboxed runs sandboxed here, over the copy, with no network and an empty home. A log
// is data: it may be a bug report from someone else, so nothing in it (its header's approvals, its
// approved calls, a sandbox mode of "off") lets a command reach past the copy. Where there is no
// sandbox a replay runs no command at all: each one is refused before it starts, and the report
// says so (those calls are not compared).
import type { ProcessOptions, SandboxProfile, SandboxStatus, Workspace } from '../../kernel/index.js';
import { WorkspaceError } from '../../kernel/index.js';
import type { NodeWorkspace } from '../../node/node-workspace.js';
import { COMMAND_SANDBOX_RULES } from '../../tools/index.js';
import { headlessWorkspace } from '../headless-workspace.js';
import { secretDetector } from '../secrets/detector.js';

export interface ReplayWorkspace {
  workspace: Workspace;
  /** Whether the replay's commands could run (in the sandbox), read once when the replay starts. */
  sandbox: SandboxStatus;
}

export async function replayWorkspace(root: string): Promise<ReplayWorkspace> {
  // Replayed commands get what a run's commands get: no credential from this environment.
  const credentials = { detector: secretDetector(), passEnv: () => [] };
  const inner = await headlessWorkspace(root, {
    web: false,
    credentials,
    sandbox: { rules: COMMAND_SANDBOX_RULES },
  });
  const sandbox = inner.sandbox?.status() ?? { type: 'unavailable', reason: 'this host runs no sandbox' };
  return { workspace: contained(inner, sandbox), sandbox };
}

/** The same workspace, its commands held in the sandbox (or refused when there is none). */
function contained(inner: NodeWorkspace, sandbox: SandboxStatus): Workspace {
  return {
    ...inner,
    runProcess(commandLine: string, options: ProcessOptions) {
      if (sandbox.type !== 'ready')
        return Promise.reject(
          new WorkspaceError(
            'io_error',
            `A replay runs commands only in the sandbox, and there is none here (${sandbox.reason}): not run.`,
          ),
        );
      return inner.runProcess(commandLine, { ...options, sandbox: sandboxed(options.sandbox) });
    },
  };
}

/** A read-only command stays read-only; anything else (a test run, a command once approved unsandboxed) runs as a test run. */
function sandboxed(profile: SandboxProfile | undefined): SandboxProfile {
  return profile === 'read_only' ? 'read_only' : 'test_run';
}
