// The HookPort on a host's Workspace: finds the hooks defined for a point (the user's, and the
// workspace's once allowed), runs each through the workspace's runProcess — the same shell, the
// same scrubbed environment (no provider key, no credential-looking variable) and process-group
// cleanup as run_command, never in the OS sandbox (a hook is the team's own guard, allowed by the
// user) — with its JSON on stdin, a time limit and capped output, and reads its answer (runs.ts).
import type { HookCall, HookPort, HookRun, Workspace } from '../../kernel/index.js';
import type { SkillProblem } from '../skills/load-skills.js';
import type { SkillSource } from '../skills/skill-source.js';
import { claudeNamesOf } from '../skills/skill-tools.js';
import { type HookDefinition, matcherSelects } from './hook-file.js';
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
  allowWorkspace(hooks: readonly HookDefinition[], hash: string): boolean | Promise<boolean>;
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

/** The hooks that may run now, read again on each call (cached while the files' text is the same). */
function activeHooks(input: PortInput): () => Promise<HookDefinition[]> {
  let last: { key: string; hooks: HookDefinition[] } | undefined;
  return async () => {
    const user = input.settings.user ? await readHookFiles(userHookFiles(input.settings.user)) : undefined;
    const trusted = input.trusted();
    const workspace = trusted ? await readHookFiles(workspaceHookFiles(input.workspace)) : undefined;
    const key = JSON.stringify([user?.texts, workspace?.texts, trusted]);
    if (last?.key === key) return last.hooks;
    const problems = [...(user?.problems ?? []), ...(workspace?.problems ?? [])];
    if (problems.length > 0) input.settings.report?.(problems);
    const shared = workspace?.hooks ?? [];
    const allowed = shared.length > 0 && (await input.settings.allowWorkspace(shared, hooksHash(shared)));
    last = { key, hooks: [...(user?.hooks ?? []), ...(allowed ? shared : [])] };
    return last.hooks;
  };
}

function selects(hook: HookDefinition, call: HookCall): boolean {
  if (!TOOL_POINTS.has(call.point) || call.tool === undefined) return true;
  return matcherSelects(hook.matcher, [call.tool, ...claudeNamesOf(call.tool)]);
}

async function runHook(
  input: PortInput,
  hook: HookDefinition,
  call: HookCall,
  signal: AbortSignal,
): Promise<Omit<HookRun, 'point' | 'tool' | 'intentId'>> {
  const seconds = Math.min(hook.timeout ?? HOOK_TIMEOUT.defaultSeconds, HOOK_TIMEOUT.maxSeconds);
  const named = { hook: hook.command, source: `${hook.file}:${hook.line}` };
  const started = Date.now();
  const root = input.workspace.root;
  try {
    const result = await input.workspace.runProcess(hook.command, {
      timeoutMs: seconds * 1000,
      signal,
      maxCaptureChars: HOOK_OUTPUT_CHARS,
      stdin: JSON.stringify(payload(input, hook, call)),
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
