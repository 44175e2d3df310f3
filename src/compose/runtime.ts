// The one composition path: a host (the CLI, the extension) passes its ports and settings, and
// gets a Runtime with the tools, the policy and the system prompt every host shares. A tool,
// rule or policy change made here reaches both hosts; host-only concerns (key lookup, trust,
// the terminal) stay in the host and come in as ports.
import {
  DELEGATE_TOOL,
  Registry,
  type AgentCatalog,
  Runtime,
  type ApprovalPolicy,
  type Checkpoints,
  type EditPreviewSource,
  type GrantStore,
  type HookPort,
  type LogStore,
  type MemoryAccess,
  type ModelProvider,
  type PolicyDecision,
  type Risk,
  type RuntimeEvent,
  type SandboxMode,
  type ToolDefinition,
  type VisibilityContext,
  type Workspace,
} from '../kernel/index.js';
import type { McpHub } from '../mcp/index.js';
import type { A2aAgentConfig } from '../a2a/index.js';
import { protocolTools } from './protocols.js';
import { createPolicy, toolsFor } from '../tools/index.js';
import { loadMemoryIndex, taskFocus } from './memory-index.js';
import { loadRules } from './rules.js';
import { createDelegateTool } from '../tools/delegate/delegate.js';
import { createAgentCatalog } from './agents/agent-catalog.js';
import { type LoadedAgent, workspaceAgentSources } from './agents/load-agents.js';
import { type LoadedCommand, loadCommands, workspaceCommandSources } from './commands/load-commands.js';
import { createUseSkillTool, type SkillLibrary } from '../tools/skills/use-skill.js';
import type { SkillProblem } from './skills/load-skills.js';
import { createSkillLibrary } from './skills/skill-library.js';
import { type SkillSource, workspaceSkillSource } from './skills/skill-source.js';
import { secretDetector } from './secrets/detector.js';
import { buildSubagentPrompt, buildSystemPrompt } from './system-prompt.js';
import { waitingRepoMap } from './repo-map-wait.js';
import { createHookPort, type HookSettings } from './hooks/hook-port.js';
import { backgroundTools, keepProcesses } from './background.js';

/** The settings that shape a runtime, whichever host read them. */
interface RuntimeSettings {
  maxTurns: number;
  autoApprove: Risk[];
  /** Commands of every class but dangerous run unasked when `execute` is auto-approved. */
  approveUnclassified?: boolean;
  /** The model's remember and forget run unasked (`write` alone does not cover them). */
  autoApproveMemory?: boolean;
  commandsAllow: string[];
  commandsDeny: string[];
  /** Which commands run in the OS sandbox; default: those that run unasked. */
  sandbox?: SandboxMode;
  /** Sub-agent guards: the cap on one child's turns, the child turns allowed across the task. */
  subagents?: { maxTurns: number; turnBudget: number };
}

export interface ComposeInput {
  provider: ModelProvider;
  settings: RuntimeSettings;
  /** Undefined without a folder: chat only, no tools. */
  workspace: Workspace | undefined;
  /** Read on every run, so granting trust enables the write/execute tools at once. */
  trusted(): boolean;
  /** False when nobody can answer a question (a headless run). */
  interactive: boolean;
  /** The machine the tools run on; this process's by default. */
  platform?: string;
  grantStore?: GrantStore;
  store?: LogStore;
  events?: readonly RuntimeEvent[];
  secrets?: () => readonly string[];
  /** The host's memory store and this task's id; without it remember/recall/forget are not offered. */
  memory?: MemoryAccess;
  /** Where each step's prior file content is kept (outside the workspace); none when absent. */
  checkpoints?: Checkpoints;
  /**
   * Skills: the user's folder, and where to report skills that were skipped. Without it no
   * skill is loaded; with it the workspace's `.keel/skills` is read too, when trusted.
   */
  skills?: { user?: SkillSource; report?(problems: readonly SkillProblem[]): void };
  /**
   * Custom agents: the user's folder, and where to report agent files that were skipped. With it
   * the workspace's `.keel/agents`, `.claude/agents` and `.github/agents` are read too, when trusted.
   */
  agents?: { user?: SkillSource; report?(problems: readonly SkillProblem[]): void };
  /** Slash commands: the user's folder, and where to report skipped files; the workspace's when trusted. */
  commands?: { user?: SkillSource; report?(problems: readonly SkillProblem[]): void };
  /** The MCP servers: the tools of those ready when the task is composed join its registry. */
  mcp?: McpHub;
  /** Remote A2A agents the user allowed: offered together as the delegate_remote tool. */
  a2a?: readonly A2aAgentConfig[];
  /** More tools a host offers beside the shared ones (a replay's recorded remote agent). */
  tools?: readonly ToolDefinition[];
  /** Told each decision the policy makes (a replay compares them with the recorded ones). */
  onPolicyDecision?(intentId: string, decision: PolicyDecision): void;
  /** The previews the host showed for edit calls (their diffs), handed to the calls when they run. */
  previews?: EditPreviewSource;
  /** Hooks: the user's folder, whether the workspace's may run, where problems go; without it no hook runs. */
  hooks?: HookSettings;
  /** Answers the hook points in place of hooks run from files (a replay plays the recorded answers back). */
  hookPort?: HookPort;
}

/** Each composed runtime's custom agents (what a host lists and picks from). */
const catalogs = new WeakMap<
  object,
  { agents: ReturnType<typeof createAgentCatalog> | undefined; commands: (() => Promise<readonly LoadedCommand[]>) | undefined }
>();

/** The custom agents of a composed runtime (none when the host passed no agents), loaded once. */
export async function runtimeAgents(runtime: object): Promise<readonly LoadedAgent[]> {
  return (await catalogs.get(runtime)?.agents?.load()) ?? [];
}

/** The slash commands of a composed runtime, read again each time (a host lists them as files change). */
export async function runtimeCommands(runtime: object): Promise<readonly LoadedCommand[]> {
  return (await catalogs.get(runtime)?.commands?.()) ?? [];
}

export function composeRuntime(input: ComposeInput): Runtime {
  const library = input.skills ? composeSkills(input, () => registry.tools().map((t) => t.name)) : undefined;
  const agents = input.agents ? composeAgents(input, () => registry.tools().map((t) => t.name)) : undefined;
  const registry = composeRegistry(input.workspace, library, agents);
  // With no folder the task has no tools at all, MCP and A2A ones included.
  if (input.workspace) for (const tool of protocolTools({ mcp: input.mcp, a2a: input.a2a })) registry.addTool(tool);
  if (input.workspace) for (const tool of input.tools ?? []) registry.addTool(tool);
  const background = input.workspace ? backgroundTools(input.workspace) : undefined;
  for (const tool of background?.tools ?? []) registry.addTool(tool);
  const visibility: VisibilityContext = {
    get trusted() {
      return input.trusted();
    },
    hasDiagnostics: typeof input.workspace?.diagnostics === 'function',
    hasCodeIntel: input.workspace?.codeIntel !== undefined,
    hasWeb: input.workspace?.web !== undefined,
    hasBrowser: input.workspace?.browser !== undefined,
    hasMemory: input.memory !== undefined,
  };
  const runtime = new Runtime({
    provider: input.provider,
    registry,
    ...(input.workspace ? { workspace: input.workspace } : {}),
    policy: observed(composePolicy(input.settings, input.interactive), input.onPolicyDecision),
    ...(input.grantStore ? { grantStore: input.grantStore } : {}),
    ...(input.store ? { store: input.store } : {}),
    ...(input.events ? { events: input.events } : {}),
    ...(input.secrets ? { secrets: input.secrets } : {}),
    // Every composed runtime checks with the one rule set: its log, remember, error text.
    secretDetector: secretDetector(),
    ...(input.memory ? { memory: input.memory } : {}),
    ...(input.checkpoints ? { checkpoints: input.checkpoints } : {}),
    ...(input.previews ? { previews: input.previews } : {}),
    ...hookPortOf(input),
    ...(input.workspace?.codeIntel?.repoMap ? { repoMap: waitingRepoMap(input.workspace.codeIntel) } : {}),
    maxTurns: input.settings.maxTurns,
    ...(input.settings.subagents ? { subagents: input.settings.subagents } : {}),
    visibility,
    // Built when the task first runs, then fixed for the task (see rules.ts).
    system: async (state) => {
      const focus = taskFocus(state);
      const rules = input.workspace ? await loadRules(input.workspace, focus.paths) : [];
      const skills = (await library?.load()) ?? [];
      const customAgents = (await agents?.load()) ?? [];
      const where = {
        workspaceRoot: input.workspace?.root,
        platform: input.platform ?? `${process.platform} (${process.arch})`,
        trusted: input.trusted(),
        rules,
      };
      const text = buildSystemPrompt({
        ...where,
        toolNames: registry.visibleTools(visibility).map((t) => t.name),
        codeIntel: visibility.hasCodeIntel === true,
        browser: visibility.hasBrowser === true && input.trusted(),
        rules,
        memory: input.memory ? await loadMemoryIndex(input.memory.store, focus, Date.now()) : undefined,
        skills,
        agents: customAgents,
        agent: state.agent,
      });
      return { text, rules: rules.map((r) => r.path), childText: buildSubagentPrompt(where) };
    },
  });
  if (background) keepProcesses(runtime, background.table);
  catalogs.set(runtime, {
    agents,
    commands: input.commands ? composeCommands(input, () => registry.tools().map((t) => t.name)) : undefined,
  });
  return runtime;
}

/** The task's hooks: a host's port as given, else the files' hooks run on the workspace; none without a folder. */
function hookPortOf(input: ComposeInput): { hooks?: HookPort } {
  if (input.hookPort) return { hooks: input.hookPort };
  if (!input.hooks || !input.workspace) return {};
  return { hooks: createHookPort({ settings: input.hooks, workspace: input.workspace, trusted: input.trusted }) };
}

/** Every tool, run_command described for the workspace's shell, use_skill given skills; none without a folder. */
export function composeRegistry(workspace: Workspace | undefined, skills?: SkillLibrary, agents?: AgentCatalog): Registry {
  const registry = new Registry();
  if (workspace)
    for (const tool of toolsFor(workspace.shell))
      registry.addTool(agents && tool.name === DELEGATE_TOOL ? createDelegateTool(agents) : tool);
  if (workspace && skills) registry.addTool(createUseSkillTool(skills));
  return registry;
}

/** The task's skills: the user's, then the workspace's unless it is untrusted (read when the task starts). */
function composeSkills(input: ComposeInput, knownTools: () => readonly string[]): SkillLibrary {
  const { user, report } = input.skills!;
  return createSkillLibrary({
    sources: () => [...(user ? [user] : []), ...(input.workspace && input.trusted() ? [workspaceSkillSource(input.workspace)] : [])],
    knownTools,
    ...(report ? { report } : {}),
  });
}

/** The custom agents as a new task would read them (the header's picker lists them before any task exists). */
export async function listAgents(input: Pick<ComposeInput, 'agents' | 'workspace' | 'trusted'>): Promise<readonly LoadedAgent[]> {
  return input.agents ? composeAgents(input, () => []).load() : [];
}

/** The task's custom agents: the user's, then the workspace's unless it is untrusted (read when the task starts). */
function composeAgents(input: Pick<ComposeInput, 'agents' | 'workspace' | 'trusted'>, knownTools: () => readonly string[]) {
  const { user, report } = input.agents!;
  return createAgentCatalog({
    sources: () => [
      ...(user ? [{ source: user, format: 'keel' as const }] : []),
      ...(input.workspace && input.trusted() ? workspaceAgentSources(input.workspace) : []),
    ],
    knownTools,
    ...(report ? { report } : {}),
  });
}

/**
 * The slash commands: the user's, then the workspace's unless it is untrusted (read on each call).
 * A host lists them before any task exists too (the composer completes `/` in a new window);
 * `known` maps a command's `tools` and only matters for a task's runtime.
 */
export async function listCommands(
  input: Pick<ComposeInput, 'commands' | 'workspace' | 'trusted'>,
  known: readonly string[] = [],
): Promise<readonly LoadedCommand[]> {
  if (!input.commands) return [];
  const { user, report } = input.commands;
  const sources = [
    ...(user ? [{ source: user, format: 'keel' as const }] : []),
    ...(input.workspace && input.trusted() ? workspaceCommandSources(input.workspace) : []),
  ];
  const { commands, problems } = await loadCommands(sources, new Set(known));
  if (problems.length > 0) report?.(problems);
  return commands;
}

function composeCommands(input: ComposeInput, knownTools: () => readonly string[]) {
  return () => listCommands(input, knownTools());
}

export function composePolicy(settings: Omit<RuntimeSettings, 'maxTurns'>, interactive: boolean): ApprovalPolicy {
  const policy = createPolicy({
    autoApprove: settings.autoApprove,
    approveUnclassified: settings.approveUnclassified ?? false,
    autoApproveMemory: settings.autoApproveMemory ?? false,
    commandRules: { allow: settings.commandsAllow, deny: settings.commandsDeny },
    sandbox: settings.sandbox ?? 'unasked',
  });
  return interactive ? policy : headless(policy);
}

function observed(policy: ApprovalPolicy, onDecision: ComposeInput['onPolicyDecision']): ApprovalPolicy {
  if (!onDecision) return policy;
  return {
    async decide(intent, ctx) {
      const decision = await policy.decide(intent, ctx);
      onDecision(intent.id, decision);
      return decision;
    },
  };
}

/**
 * With nobody to ask, protected paths and paths outside the workspace are refused outright,
 * even under --approve all; everything else that would ask is rejected by the host.
 */
function headless(inner: ApprovalPolicy): ApprovalPolicy {
  return {
    async decide(intent, ctx): Promise<PolicyDecision> {
      const verdict = await inner.decide(intent, ctx);
      if (verdict.type === 'ask' && verdict.overridable === false)
        return { type: 'deny', reason: `${verdict.reason} (refused: nobody to ask in a non-interactive run)` };
      return verdict;
    },
  };
}
