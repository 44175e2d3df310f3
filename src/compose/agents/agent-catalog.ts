// The task's agent catalog: loaded on first use (the system prompt's build, when the task
// starts) and then fixed for the runtime, so the prompt's list and what `delegate {agent}`
// finds agree. The sources are asked for at load time, so trust is read when the task starts.
import type { SkillProblem } from '../skills/load-skills.js';
import { type AgentSource, type LoadedAgent, loadAgents } from './load-agents.js';

export interface AgentCatalogOptions {
  sources(): readonly AgentSource[];
  /** The tools the run has, by name: an agent's list maps onto these. */
  knownTools(): readonly string[];
  /** Told once per load about agent files that were skipped. */
  report?(problems: readonly SkillProblem[]): void;
}

export function createAgentCatalog(o: AgentCatalogOptions): { load(): Promise<readonly LoadedAgent[]> } {
  let loading: Promise<readonly LoadedAgent[]> | undefined;
  return {
    load() {
      loading ??= (async () => {
        const result = await loadAgents(o.sources(), new Set(o.knownTools()));
        if (result.problems.length > 0) o.report?.(result.problems);
        return result.agents;
      })();
      return loading;
    },
  };
}

/** The agents lines of the system prompt: names and descriptions only; none without agents. */
export function agentsSection(agents: readonly Pick<LoadedAgent, 'name' | 'description'>[]): string[] {
  if (agents.length === 0) return [];
  const lines = [
    '',
    "Custom agents (the project's or the user's): to hand work to one, call delegate with its name as `agent`; it gets its own instructions and tools.",
  ];
  for (const a of agents) lines.push(`- ${a.name}: ${a.description.replace(/\s+/g, ' ')}`);
  return lines;
}
