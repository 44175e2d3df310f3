// The HookPort on a host's Workspace: finds the hooks defined for a point (the user's, and the
// workspace's once allowed: their definitions and the bytes of the files they run), runs each
// through the workspace's runProcess — the same shell, the same scrubbed environment (no provider
// key, no credential-looking variable) and process-group cleanup as run_command — with its JSON
// on stdin, a time limit and capped output, and reads its answer (hook-answer.ts). The user's
// own hooks run as the user's shell would; the workspace's run in the test-run sandbox (no
// network, home hidden, protected paths read-only) unless the user allowed them unsandboxed:
// their text came with the repository, and a test run or the model may have written it.
import type { HookCall, HookPort, HookRun, SandboxProfile, Workspace } from '../../kernel/index.js';
import type { SkillProblem } from '../skills/load-skills.js';
import type { SkillSource } from '../skills/skill-source.js';
import { claudeNamesOf } from '../skills/skill-tools.js';
import { type HookDefinition, matcherSelects } from './hook-file.js';
import { hookScripts, type HookScript } from './hook-scripts.js';
import { hooksHash, readHookFiles, userHookFiles, workspaceHookFiles } from './load-hooks.js';
import { hookAnswer, HOOK_OUTPUT_CHARS } from './hook-answer.js';

/** A hook's time limit when its definition names none, and the most a definition may ask for. */
const HOOK_TIMEOUT = { defaultSeconds: 10, maxSeconds: 120 };

export interface HookSettings {
  /** Keel's folder in the user's config (its `hooks.json`); absent: no user hooks. */
  user?: SkillSource;
  /**
   * Whether the workspace's hooks may run: asked with their definitions and hash when a trusted
   * workspace defines some (again when they change). The CLI answers --allow-hooks; the editor
   * asks the user and remembers the hash.
   */
  allowWorkspace(hooks: readonly HookDefinition[], hash: string, scripts: readonly HookScript[]): boolean | Promise<boolean>;
  /** The user allowed the workspace's hooks to run outside the sandbox (CLI: --allow-hooks-unsandboxed). */
  unsandboxed?: boolean;
  report?(problems: readonly SkillProblem[]): void;
  /** The task's id, as hooks get it (`session_id`, `task_id`). */
  taskId?: string;
}

interface PortInput {
  settings: HookSettings;
  workspace: Workspace;
  trusted(): boolean;
}

const TOOL_POINTS = new Set(['PreToolUse', 'PostToolUse']);

export function createHookPort(input: PortInput): HookPort {
  const active = activeHooks(input);
  return {
    async run(call, signal) {
      const hooks = (await active()).filter((h) => h.point === call.point && selects(h, call));
      return Promise.all(hooks.map((h) => runHook(input, h, call, signal)));
    },
  };
}

/** A hook that may run, and the sandbox profile it runs in (absent: as the user's shell would). */
type ActiveHook = HookDefinition & { sandbox?: SandboxProfile };

/**
 * The hooks that may run now, read again on each call with the bytes of the files they run
 * (cached while all of that is the same; any change is put to allowWorkspace again).
 */
function activeHooks(input: PortInput): () => Promise<ActiveHook[]> {
  let last: { key: string; hooks: ActiveHook[] } | undefined;
  return async () => {
    const user = input.settings.user ? await readHookFiles(userHookFiles(input.settings.user)) : undefined;
    const trusted = input.trusted();
    const workspace = trusted ? await readHookFiles(workspaceHookFiles(input.workspace)) : undefined;
    const shared = workspace?.hooks ?? [];
    const scripts = shared.length > 0 ? await hookScripts(input.workspace, shared) : [];
    const key = JSON.stringify([user?.texts, workspace?.texts, scripts, trusted]);
    if (last?.key === key) return last.hooks;
    const problems = [...(user?.problems ?? []), ...(workspace?.problems ?? [])];
    if (problems.length > 0) input.settings.report?.(problems);
    const allowed = shared.length > 0 && (await input.settings.allowWorkspace(shared, hooksHash(shared, scripts), scripts));
    const sandbox: Pick<ActiveHook, 'sandbox'> = input.settings.unsandboxed ? {} : { sandbox: 'test_run' };
    last = { key, hooks: [...(user?.hooks ?? []), ...(allowed ? shared.map((h) => ({ ...h, ...sandbox })) : [])] };
    return last.hooks;
  };
}

/** A hook whose matcher Keel cannot read selects every tool (and blocks it: runHook). */
function selects(hook: HookDefinition, call: HookCall): boolean {
  if (!TOOL_POINTS.has(call.point) || call.tool === undefined || hook.brokenMatcher) return true;
  return matcherSelects(hook.matcher, [call.tool, ...claudeNamesOf(call.tool)]);
}

async function runHook(
  input: PortInput,
  hook: ActiveHook,
  call: HookCall,
  signal: AbortSignal,
): Promise<Omit<HookRun, 'point' | 'tool' | 'intentId'>> {
  const seconds = Math.min(hook.timeout ?? HOOK_TIMEOUT.defaultSeconds, HOOK_TIMEOUT.maxSeconds);
  const named = { hook: hook.command, source: `${hook.file}:${hook.line}` };
  if (hook.brokenMatcher)
    return {
      ...named,
      outcome: 'error',
      reason: `its matcher "${hook.matcher}" is not a valid pattern (${hook.brokenMatcher})`,
      durationMs: 0,
    };
  const started = Date.now();
  const root = input.workspace.root;
  try {
    const result = await input.workspace.runProcess(hook.command, {
      timeoutMs: seconds * 1000,
      signal,
      maxCaptureChars: HOOK_OUTPUT_CHARS,
      stdin: JSON.stringify(payload(input, hook, call)),
      ...(hook.sandbox ? { sandbox: hook.sandbox } : {}),
      // Scripts written for Claude Code find the project through CLAUDE_PROJECT_DIR.
      env: { KEEL_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root },
    });
    return { ...named, ...hookAnswer(result, call.point, seconds), durationMs: Date.now() - started };
  } catch (err) {
    return { ...named, outcome: 'error', reason: `could not run: ${(err as Error).message}`, durationMs: Date.now() - started };
  }
}

/** What a hook reads on stdin: Claude Code's field names (so its scripts work), and Keel's names beside them. */
function payload(input: PortInput, hook: HookDefinition, call: HookCall): Record<string, unknown> {
  const claude = hook.format === 'claude';
  const tool =
    call.tool === undefined ? {} : { tool_name: (claude ? claudeNamesOf(call.tool)[0] : undefined) ?? call.tool, keel_tool: call.tool };
  return {
    session_id: input.settings.taskId ?? '',
    task_id: input.settings.taskId ?? '',
    hook_event_name: claude ? CLAUDE_EVENT[call.point] : call.point,
    keel_point: call.point,
    cwd: input.workspace.root,
    ...tool,
    ...(call.toolInput !== undefined ? { tool_input: call.toolInput } : {}),
    ...(call.toolResult !== undefined ? { tool_response: call.toolResult } : {}),
    ...(call.intentId !== undefined ? { tool_use_id: call.intentId } : {}),
    ...(call.prompt !== undefined ? { prompt: call.prompt } : {}),
  };
}

const CLAUDE_EVENT: Record<HookCall['point'], string> = {
  TaskStart: 'SessionStart',
  UserPromptSubmit: 'UserPromptSubmit',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  PreFold: 'PreCompact',
  TaskEnd: 'Stop',
};
