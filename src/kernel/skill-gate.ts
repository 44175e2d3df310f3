// Capability gating by skills: while a skill that names its tools is active, only those tools
// are offered to the model and only those run. The gate is state folded from the log (the
// skill's activation is a fact of its tool result), so a reloaded or resumed task keeps it.
//
// A gate only ever narrows: a second skill leaves the tools both allow, a skill without a list
// keeps the gate as it is, and a tool the run does not offer anyway (hidden in Restricted Mode,
// not registered) is never added. Approval is the policy's business and a skill has no say in it.
// The gate lasts for the run: a new user message starts the next one without it.
//
// The mode (modes.ts) and a custom agent the user picked (its tool list) narrow through the same
// gate: the tools offered are those the mode, the agent and the active skills all allow.
import type { ActiveSkills, ConversationState } from './contracts/state.js';
import type { Workspace } from './contracts/workspace.js';
import type { ObservationErrorCode, ToolDefinition, VisibilityContext } from './contracts/tool.js';
import { modeAllows, modeName, modeToolNames } from './modes.js';

/** What the gate is folded from: the active skills and the mode. */
type GateState = Pick<ConversationState, 'skills' | 'mode' | 'agent'>;

export const NO_SKILLS: ActiveSkills = { names: [], tools: undefined };

export function activateSkill(current: ActiveSkills, skill: { name: string; tools?: string[] | undefined }): ActiveSkills {
  const names = current.names.includes(skill.name) ? current.names : [...current.names, skill.name];
  if (skill.tools === undefined) return { names, tools: current.tools };
  const tools = current.tools === undefined ? [...new Set(skill.tools)] : current.tools.filter((t) => skill.tools!.includes(t));
  return { names, tools };
}

/** The set a VisibilityContext carries for these skills and mode; undefined when no gate is on. */
function allowedToolsOf(gate: GateState, registered: readonly ToolDefinition[]): ReadonlySet<string> | undefined {
  // Each of the mode, the picked agent and the skills may leave a list; the gate is what all allow.
  const lists = [modeToolNames(gate.mode, registered), gate.agent?.tools, gate.skills.tools].filter((l) => l !== undefined);
  if (lists.length === 0) return undefined;
  return new Set(lists.reduce((kept, list) => kept.filter((t) => list.includes(t))));
}

/** Whether the model is offered this tool now: its own visibility rule, then the skill gate. */
export function isOffered(def: ToolDefinition, ctx: VisibilityContext): boolean {
  if (def.isVisible && !def.isVisible(ctx)) return false;
  return ctx.allowedTools === undefined || ctx.allowedTools.has(def.name);
}

/** Why a call did not run: the code hosts branch on, the model's reason, and the words people read. */
export interface GateRefusal {
  code: Extract<ObservationErrorCode, 'blocked_by_mode' | 'blocked_by_agent' | 'blocked_by_skill'>;
  reason: string;
  summary: string;
}

const GATE_CODES: ReadonlySet<string> = new Set<GateRefusal['code']>(['blocked_by_mode', 'blocked_by_agent', 'blocked_by_skill']);

/** Whether an observation's code says the gate kept the call from running (a choice, not a failure). */
export function isGateRefusal(code: string | undefined): boolean {
  return code !== undefined && GATE_CODES.has(code);
}

/** Why a registered tool may not run under the mode and the active skills (undefined: it may). */
export function gateRefusal(def: ToolDefinition, ctx: VisibilityContext, gate: GateState): GateRefusal | undefined {
  const tool = def.name;
  if (ctx.allowedTools === undefined || ctx.allowedTools.has(tool)) return undefined;
  // The offered tools are in the request: the mode's refusal names the rule, not a list.
  if (!modeAllows(gate.mode, def)) {
    const mode = modeName(gate.mode);
    return {
      code: 'blocked_by_mode',
      reason: `${tool} is not available in ${mode} mode: the user chose a mode in which only tools that change nothing run.`,
      summary: `Not run in ${mode} mode`,
    };
  }
  const agent = gate.agent;
  if (agent?.tools && !agent.tools.includes(tool))
    return {
      code: 'blocked_by_agent',
      reason: `${tool} is not available to the agent "${agent.name}" the user picked; its tools are: ${agent.tools.join(', ') || 'none'}.`,
      summary: `Not run: the agent ${agent.name} does not use this tool`,
    };
  const allowed = [...ctx.allowedTools].join(', ') || 'none';
  const names = gate.skills.names.map((n) => `"${n}"`).join(', ');
  return {
    code: 'blocked_by_skill',
    reason: `${tool} is not available while the skill ${names} is active; it allows only: ${allowed}.`,
    summary: `Not run: the skill ${names} does not use this tool`,
  };
}

/**
 * The host's visibility plus whether a memory store is configured and the gate of the mode and
 * the active skills over the `registered` tools. Read through, not copied: a host's `trusted`
 * may be a getter, so trust granted during a task shows at the next turn, and a skill activated
 * by a call gates the calls after it.
 */
function gatedVisibility(
  host: VisibilityContext,
  hasMemory: boolean,
  gate: () => GateState,
  registered: () => readonly ToolDefinition[],
): VisibilityContext {
  let seen: GateState | undefined;
  let allowed: ReadonlySet<string> | undefined;
  return {
    get trusted() {
      return host.trusted;
    },
    get hasDiagnostics() {
      return host.hasDiagnostics;
    },
    get hasCodeIntel() {
      return host.hasCodeIntel;
    },
    get hasWeb() {
      return host.hasWeb;
    },
    get hasBrowser() {
      return host.hasBrowser;
    },
    hasMemory,
    get allowedTools() {
      // The state's skills object changes only when a skill is activated or a run starts, the mode only by mode_set.
      const now = gate();
      if (now.skills !== seen?.skills || now.mode !== seen.mode || now.agent !== seen.agent)
        [seen, allowed] = [{ skills: now.skills, mode: now.mode, agent: now.agent }, allowedToolsOf(now, registered())];
      return allowed;
    },
  };
}

/** What of the runtime's options (RuntimeOptions) the visibility is read from. */
interface VisibilityOptions {
  visibility?: VisibilityContext;
  workspace?: Pick<Workspace, 'diagnostics' | 'codeIntel' | 'web' | 'browser'>;
  memory?: unknown;
  registry: { tools(): ToolDefinition[] };
}

/** The run's visibility from the runtime's options (the host's, or everything the workspace has), gated. */
export function optionsVisibility(o: VisibilityOptions, state: () => ConversationState): VisibilityContext {
  const host = o.visibility ?? {
    trusted: true,
    hasDiagnostics: !!o.workspace?.diagnostics,
    hasCodeIntel: !!o.workspace?.codeIntel,
    hasWeb: !!o.workspace?.web,
    hasBrowser: !!o.workspace?.browser,
  };
  return gatedVisibility(host, o.memory !== undefined, state, () => o.registry.tools());
}
