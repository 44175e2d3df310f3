// One custom agent file, in any of the three formats Keel reads unchanged:
// - keel:    `.keel/agents/NAME.md` (and the user's folder): `name`, `description`, `tools`, `model`;
// - claude:  `.claude/agents/NAME.md`, Claude Code's subagents: the same fields, `tools` a
//            comma-separated line, `model` an alias or `inherit`;
// - copilot: `.github/agents/NAME.agent.md`, GitHub Copilot's custom agents: `description`,
//            `tools` a list, `model`; the agent is called by its file's name (a `name` field
//            there is a display name).
// The body is the instructions. Other fields (color, handoffs, …) are ignored. A problem comes
// back with its line, never a half-read agent.
import { nameList, parseFrontMatter } from '../front-matter.js';

export type AgentFileFormat = 'keel' | 'claude' | 'copilot';

/** The longest agent file Keel reads. */
export const AGENT_FILE_MAX_BYTES = 64 * 1024;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
/** Letters and digits with single - _ or . between them: Copilot's file names use capitals too (CSharpExpert). */
const NAME_PATTERN = /^[A-Za-z0-9]+([-_.][A-Za-z0-9]+)*$/;

interface AgentManifest {
  name: string;
  description: string;
  /** As written (undefined: no list, every tool the run offers); mapped to Keel's names later. */
  tools: string[] | undefined;
  /** undefined: the run's own model (`inherit` or absent). */
  model: string | undefined;
  instructions: string;
}

export type ParsedAgent = { ok: true; agent: AgentManifest } | { ok: false; line: number; message: string };

/** Why a name cannot be an agent's name (undefined: it can). */
function agentNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > NAME_MAX) return `an agent's name has 1 to ${NAME_MAX} characters`;
  if (!NAME_PATTERN.test(name)) return 'an agent\'s name has letters and digits with single - _ or . between them (like "code-reviewer")';
  return undefined;
}

/** `stem`: the file's name without its extension (`.md`, `.agent.md`). */
export function parseAgentFile(text: string, format: AgentFileFormat, stem: string): ParsedAgent {
  const parsed = parseFrontMatter(text, 'an agent file');
  if (!parsed.ok) return parsed;
  const { data, lineOf, body } = parsed.matter;
  const fieldLine = (key: string) => lineOf(key) ?? 2;
  let name: string;
  if (format === 'copilot') {
    const problem = agentNameProblem(stem);
    if (problem) return fail(1, `the file name "${stem}.agent.md" cannot name an agent: ${problem}`);
    name = stem;
  } else {
    if (typeof data.name !== 'string') return fail(fieldLine('name'), 'the field "name" is missing or not text');
    const problem = agentNameProblem(data.name);
    if (problem) return fail(fieldLine('name'), `invalid name "${data.name}": ${problem}`);
    name = data.name;
  }
  const description = data.description;
  if (typeof description !== 'string' || description.trim() === '')
    return fail(fieldLine('description'), 'the field "description" is missing or empty: say what the agent does and when to use it');
  if (description.length > DESCRIPTION_MAX)
    return fail(fieldLine('description'), `the description has ${description.length} characters; at most ${DESCRIPTION_MAX}`);
  const tools = nameList(data.tools);
  if (tools === null) return fail(fieldLine('tools'), '"tools" must be a list of tool names, or one line of them');
  // Copilot may list models to try in order: the first is the agent's model.
  const model = Array.isArray(data.model) && typeof data.model[0] === 'string' ? data.model[0] : data.model;
  if (model !== undefined && typeof model !== 'string')
    return fail(fieldLine('model'), '"model" must be text (a model name, or "inherit") or a list of model names');
  if (body.trim() === '') return fail(1, "the agent has no instructions: write them after the front matter's closing line");
  return {
    ok: true,
    agent: {
      name,
      description: description.trim(),
      tools,
      model: model === undefined || model.trim() === 'inherit' ? undefined : model.trim(),
      instructions: body.trim(),
    },
  };
}

function fail(line: number, message: string): ParsedAgent {
  return { ok: false, line, message };
}
