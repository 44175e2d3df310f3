// The task's custom agents, read once when it starts (like skills): the user's folder first,
// then the workspace's `.keel/agents`, `.claude/agents` and `.github/agents` (none from an
// untrusted workspace: the caller leaves those sources out). A workspace agent with the name
// of one read before it is skipped, so a repository cannot replace the user's own agent. A file
// with a problem is skipped and reported with its file and line; the others load.
import type { AgentProfile, Workspace } from '../../kernel/index.js';
import type { SkillProblem } from '../skills/load-skills.js';
import { keelTools } from '../skills/skill-tools.js';
import { type SkillSource, workspaceFolderSource } from '../skills/skill-source.js';
import { loadNamedFiles, type NamedFileRead } from '../named-files.js';
import { AGENT_FILE_MAX_BYTES, type AgentFileFormat, parseAgentFile } from './agent-file.js';

/** How many agents one task loads at most (their descriptions are in the delegate tool's text). */
const MAX_AGENTS = 64;

export interface AgentSource {
  source: SkillSource;
  format: AgentFileFormat;
}

export type LoadedAgent = AgentProfile & { description: string; scope: 'workspace' | 'user'; unknownTools: string[] };

/** The workspace's agent folders, in the order they are read. */
export function workspaceAgentSources(workspace: Workspace): AgentSource[] {
  return [
    { source: workspaceFolderSource(workspace, '.keel/agents'), format: 'keel' },
    { source: workspaceFolderSource(workspace, '.claude/agents'), format: 'claude' },
    { source: workspaceFolderSource(workspace, '.github/agents'), format: 'copilot' },
  ];
}

const SUFFIX: Record<AgentFileFormat, string> = { keel: '.md', claude: '.md', copilot: '.agent.md' };

/** Agents from the sources in order of precedence, sorted by name. `known`: the run's tool names. */
export async function loadAgents(
  sources: readonly AgentSource[],
  known: ReadonlySet<string>,
): Promise<{ agents: LoadedAgent[]; problems: SkillProblem[] }> {
  const { loaded, problems } = await loadNamedFiles(sources, {
    one: 'an agent',
    many: 'agents',
    max: MAX_AGENTS,
    suffix: SUFFIX,
    read: (source, name, format, stem) => readAgent(source, name, format, stem, known),
  });
  return { agents: loaded, problems };
}

async function readAgent(
  source: SkillSource,
  name: string,
  format: AgentFileFormat,
  stem: string,
  known: ReadonlySet<string>,
): Promise<NamedFileRead<Omit<LoadedAgent, 'file' | 'scope'>>> {
  const { data, size } = await source.read(name, AGENT_FILE_MAX_BYTES);
  if (size > AGENT_FILE_MAX_BYTES) return { message: `${size} bytes; an agent file may have at most ${AGENT_FILE_MAX_BYTES}` };
  const parsed = parseAgentFile(new TextDecoder().decode(data), format, stem);
  if (!parsed.ok) return { line: parsed.line, message: parsed.message };
  const a = parsed.agent;
  const tools = a.tools === undefined ? undefined : keelTools(a.tools, known);
  return {
    name: a.name,
    description: a.description,
    instructions: a.instructions,
    ...(tools ? { tools: tools.tools } : {}),
    ...(a.model ? { model: a.model } : {}),
    unknownTools: tools?.unknown ?? [],
  };
}
