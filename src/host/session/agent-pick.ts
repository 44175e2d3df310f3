// What the composer's message is sent as: a typed `/name args` expanded (slash-command.ts) and the
// header picker's custom agent resolved by the same pickAgent as `keel run --agent`; an unknown
// command or agent is refused, never sent. Also the agents the picker lists (the task's composed
// runtime's, as text the view shows safely).
import { runtimeAgents } from '../../compose/runtime.js';
import type { LoadedAgent } from '../../compose/agents/load-agents.js';
import { pickAgent } from '../../compose/agents/pick-agent.js';
import type { AgentProfile, UserInput } from '../../kernel/index.js';
import { visibleText } from '../../kernel/visible-text.js';
import type { AgentView } from '../../protocol/index.js';
import type { Task } from '../tasks/task.js';
import { slashCommand } from './slash-command.js';

export type ComposerInput = { type: 'send'; input: Exclude<UserInput, string> } | { type: 'refused'; message: string };

/** `agentName`: the picker's (absent: the task's agent stays). A command's own agent or tools win for its message. */
export async function composerInput(task: Task, text: string, agentName: string | undefined): Promise<ComposerInput> {
  const slash = await slashCommand(task, text);
  if (slash.type === 'error') return { type: 'refused', message: slash.message };
  const picked = agentName === undefined ? undefined : await headerAgent(task, agentName);
  if (picked?.type === 'unknown') return { type: 'refused', message: picked.message };
  const agent = slash.type === 'expanded' && slash.agent ? { agent: slash.agent } : picked ? { agent: picked.agent } : {};
  return { type: 'send', input: { text: slash.type === 'expanded' ? slash.text : text, ...agent } };
}

/** '' picks no agent (null: the kernel logs agent_set without one). */
type HeaderAgentPick = { type: 'agent'; agent: AgentProfile | null } | { type: 'unknown'; message: string };

async function headerAgent(task: Task, name: string): Promise<HeaderAgentPick> {
  if (name === '') return { type: 'agent', agent: null };
  const pick = pickAgent(await runtimeAgents(task.runtime), name);
  return pick.type === 'agent' ? pick : { type: 'unknown', message: `Not sent: ${pick.message}` };
}

/**
 * The agents the picker lists: the shown task's, or with none shown those a new task would read
 * (`unshown`). A name the protocol cannot carry (over 64 characters) is left out.
 */
export async function agentViews(task: Task | undefined, unshown?: () => Promise<readonly LoadedAgent[]>): Promise<AgentView[]> {
  const agents = task ? await runtimeAgents(task.runtime) : ((await unshown?.()) ?? []);
  return agents
    .filter((a) => a.name.length <= 64)
    .slice(0, 64)
    .map((a) => {
      const description = visibleText(a.description).slice(0, 1024);
      return { name: a.name, ...(description ? { description } : {}) };
    });
}
