// Capability gating by skills: while a skill that names its tools is active, only those tools
// are offered to the model and only those run. The gate is state folded from the log (the
// skill's activation is a fact of its tool result), so a reloaded or resumed task keeps it.
//
// A gate only ever narrows: a second skill leaves the tools both allow, a skill without a list
// keeps the gate as it is, and a tool the run does not offer anyway (hidden in Restricted Mode,
// not registered) is never added. Approval is the policy's business and a skill has no say in it.
// The gate lasts for the run: a new user message starts the next one without it.
import type { ActiveSkills } from './contracts/state.js';
import type { ToolDefinition, VisibilityContext } from './contracts/tool.js';

export const NO_SKILLS: ActiveSkills = { names: [], tools: undefined };

export function activateSkill(current: ActiveSkills, skill: { name: string; tools?: string[] | undefined }): ActiveSkills {
  const names = current.names.includes(skill.name) ? current.names : [...current.names, skill.name];
  if (skill.tools === undefined) return { names, tools: current.tools };
  const tools = current.tools === undefined ? [...new Set(skill.tools)] : current.tools.filter((t) => skill.tools!.includes(t));
  return { names, tools };
}

/** The set a VisibilityContext carries for these skills; undefined when no gate is on. */
function allowedToolsOf(skills: ActiveSkills): ReadonlySet<string> | undefined {
  return skills.tools === undefined ? undefined : new Set(skills.tools);
}

/** Whether the model is offered this tool now: its own visibility rule, then the skill gate. */
export function isOffered(def: ToolDefinition, ctx: VisibilityContext): boolean {
  if (def.isVisible && !def.isVisible(ctx)) return false;
  return ctx.allowedTools === undefined || ctx.allowedTools.has(def.name);
}

/** Why a registered tool may not run under the active skills (undefined: it may). */
export function gateRefusal(tool: string, ctx: VisibilityContext, skills: ActiveSkills): string | undefined {
  if (ctx.allowedTools === undefined || ctx.allowedTools.has(tool)) return undefined;
  const allowed = [...ctx.allowedTools].join(', ') || 'none';
  return `${tool} is not available while the skill ${skills.names.map((n) => `"${n}"`).join(', ')} is active; it allows only: ${allowed}.`;
}

/**
 * The host's visibility plus whether a memory store is configured and the active skills' gate.
 * Read through, not copied: a host's `trusted` may be a getter, so trust granted during a task
 * shows at the next turn, and a skill activated by a call gates the calls after it.
 */
export function gatedVisibility(host: VisibilityContext, hasMemory: boolean, skills: () => ActiveSkills): VisibilityContext {
  let seen: ActiveSkills | undefined;
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
    hasMemory,
    get allowedTools() {
      // The state's skills object changes only when a skill is activated or a run starts.
      const now = skills();
      if (now !== seen) [seen, allowed] = [now, allowedToolsOf(now)];
      return allowed;
    },
  };
}
