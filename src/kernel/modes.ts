// Modes narrow a run's tools the way a skill's gate does (skill-gate.ts): Plan and Ask offer
// only the tools that change nothing (a tool's own `readOnly`, the same flag the policy and the
// sub-agents read), so the model cannot even propose an edit or a command there. The mode is
// state folded from a `mode_set` event, so a replayed or reloaded task keeps it; the message
// a user sends in Plan or Ask carries the mode, and the model reads the mode's note with it.
import type { AgentProfile } from './contracts/agents.js';
import type { AgentMode } from './contracts/todos.js';
import type { ToolDefinition } from './contracts/tool.js';

/** Whether the mode offers this tool: Agent every one, Plan and Ask those that change nothing. */
export function modeAllows(mode: AgentMode, def: Pick<ToolDefinition, 'readOnly'>): boolean {
  return mode === 'agent' || def.readOnly;
}

/** The names the mode leaves of these tools; undefined when it leaves them all (Agent). */
export function modeToolNames(mode: AgentMode, tools: readonly ToolDefinition[]): readonly string[] | undefined {
  return mode === 'agent' ? undefined : tools.filter((t) => modeAllows(mode, t)).map((t) => t.name);
}

const MODE_NAMES: Record<AgentMode, string> = { agent: 'Agent', plan: 'Plan', ask: 'Ask' };

export function modeName(mode: AgentMode): string {
  return MODE_NAMES[mode];
}

/** What the model is told with a message sent in Plan or Ask mode (before the user's text). */
export const MODE_NOTES: Record<Exclude<AgentMode, 'agent'>, string> = {
  plan:
    '[Keel: the user sent this in Plan mode. Only tools that change nothing are available. Investigate as needed, then ' +
    'write the plan as your to-do list with todo_write (one item per step, all pending) and end your turn with a short ' +
    'summary of it. Change nothing: the user will approve the plan before any change is made.]',
  ask:
    '[Keel: the user sent this in Ask mode. Only tools that change nothing are available. Answer the question; ' +
    'do not propose or make changes.]',
};

/** The message that approves a Plan-mode plan (sent in Agent mode: the to-do list is the plan). */
export const PLAN_APPROVED_TEXT =
  'I approve the plan. Carry it out now, working through the to-do list: mark each item in_progress when you start it ' +
  'and done when it is finished.';

/** Whether two picks are the same agent, profile and all (a changed file is a new pick). */
export function sameAgent(a: AgentProfile | undefined, b: AgentProfile | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
