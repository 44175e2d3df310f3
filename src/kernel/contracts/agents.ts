// Custom agents: a named set of instructions with its own tools and model, read from files
// by src/compose/agents. The kernel sees only this profile: handed to `delegate {agent}` the
// child runs with it; picked for the task (`agent_set`) it narrows the task's tools. A profile
// only narrows: its tools are intersected with what the run offers, and approvals are unchanged.
import { z } from 'zod';

export const AgentProfileSchema = z.object({
  /** What the user and the model call it by. */
  name: z.string().min(1),
  /** Where it was read from (`.claude/agents/x.md`), as people see it. */
  file: z.string(),
  /** Appended to the system prompt of the run (or child) it drives. */
  instructions: z.string(),
  /** Keel tool names it may use; undefined: every tool the run offers. */
  tools: z.array(z.string()).optional(),
  /** The model it names, as written; undefined: the run's own. */
  model: z.string().optional(),
});
export type AgentProfile = z.infer<typeof AgentProfileSchema>;

/** The agents a task can use: the one path the delegate tool and the hosts look them up by. */
export interface AgentCatalog {
  load(): Promise<readonly (AgentProfile & { description: string })[]>;
}
