// Step 1 of the A2A client: which remote agents the model may delegate to. `a2a.json` in the
// user's config folder, or in the workspace (`.keel/a2a.json`, which a person approves first, as a
// workspace's MCP servers), in the same form as mcp.json: `{"agents": {"NAME": {"url": "…",
// "headers": {…}, "description": "…"}}}`, comments allowed. Each agent is checked on its own: a bad
// entry is a problem naming the file and the agent, and the others still load. Pure.
import { z } from 'zod';
import { parseJsonc } from '../kernel/jsonc.js';

const AgentSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
  /** Shown to the model beside the agent card's own description. */
  description: z.string().max(500).optional(),
});
type AgentDefinition = z.infer<typeof AgentSchema>;

export type A2aSource = 'user' | 'workspace';

export interface A2aAgentConfig {
  name: string;
  source: A2aSource;
  file: string;
  definition: AgentDefinition;
}

interface A2aConfigProblem {
  file: string;
  agent?: string;
  message: string;
}

export interface A2aConfigFile {
  agents: A2aAgentConfig[];
  problems: A2aConfigProblem[];
}

/** Names the model writes: short, plain, and never able to look like something else. */
const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export function parseA2aConfig(text: string, file: string, source: A2aSource): A2aConfigFile {
  const json = parseJsonc(text);
  if (json === undefined) return { agents: [], problems: [{ file, message: 'not valid JSON (comments and trailing commas are allowed)' }] };
  const agents = (json as { agents?: unknown } | null)?.agents;
  if (
    typeof json !== 'object' ||
    json === null ||
    Array.isArray(json) ||
    (agents !== undefined && (typeof agents !== 'object' || agents === null || Array.isArray(agents)))
  )
    return { agents: [], problems: [{ file, message: 'expected an object with an "agents" object of named agents' }] };
  const out: A2aConfigFile = { agents: [], problems: [] };
  for (const [name, raw] of Object.entries(agents ?? {})) {
    if (!NAME.test(name)) {
      out.problems.push({ file, agent: name, message: 'an agent name is lowercase letters, digits, "-" and "_" (at most 40)' });
      continue;
    }
    const parsed = AgentSchema.safeParse(raw);
    if (parsed.success) out.agents.push({ name, source, file, definition: parsed.data });
    else out.problems.push({ file, agent: name, message: z.prettifyError(parsed.error).replace(/\n+/g, '; ') });
  }
  return out;
}

/**
 * The exact definition a person approves for a workspace's agent: its name, URL, headers and
 * description (what the model is told), keys sorted. Any change makes a new key: asked again.
 */
export function a2aDefinitionKey(agent: Pick<A2aAgentConfig, 'name' | 'definition'>): string {
  const { url, headers, description } = agent.definition;
  const sortedHeaders = Object.fromEntries(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ name: agent.name, url, headers: sortedHeaders, description: description ?? null });
}

/** Several files in order (the user's first): a later agent of the same name is a problem, not a replacement. */
export function mergeA2aConfigs(files: readonly A2aConfigFile[]): A2aConfigFile {
  const merged: A2aConfigFile = { agents: [], problems: [] };
  for (const f of files) {
    merged.problems.push(...f.problems);
    for (const a of f.agents) {
      const first = merged.agents.find((m) => m.name === a.name);
      if (first)
        merged.problems.push({ file: a.file, agent: a.name, message: `an agent named "${a.name}" is already defined in ${first.file}` });
      else merged.agents.push(a);
    }
  }
  return merged;
}
