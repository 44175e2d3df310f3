// A custom agent picked by name for the task — `keel run --agent NAME` and the editor's header
// picker alike: the profile the kernel logs (agent_set), or a refusal naming the agents there are.
import type { AgentProfile } from '../../kernel/index.js';
import type { LoadedAgent } from './load-agents.js';

export type AgentPick = { type: 'agent'; agent: AgentProfile } | { type: 'unknown'; message: string };

export function pickAgent(agents: readonly LoadedAgent[], name: string): AgentPick {
  const found = agents.find((a) => a.name === name);
  if (!found)
    return {
      type: 'unknown',
      message: `there is no custom agent named "${name}" (the agents are: ${agents.map((a) => a.name).join(', ') || 'none'}).`,
    };
  return {
    type: 'agent',
    agent: {
      name: found.name,
      file: found.file,
      instructions: found.instructions,
      ...(found.tools ? { tools: found.tools } : {}),
      ...(found.model ? { model: found.model } : {}),
    },
  };
}
