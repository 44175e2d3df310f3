// Step 2c of composing a runtime, part one: one SKILL.md read as the Agent Skills convention
// writes it — YAML front matter between `---` lines (`name`, `description`, optionally the tools
// it may use as `tools` or `allowed-tools`), then the markdown instructions. Other agents' fields
// (license, metadata, …) are ignored, so their skills load unchanged. Anything wrong is a problem
// with the line it is on (counted in SKILL.md), never a half-read skill.
import { nameList, parseFrontMatter } from '../front-matter.js';

/** The longest SKILL.md Keel reads (the convention suggests a few hundred lines). */
export const SKILL_FILE_MAX_BYTES = 64 * 1024;
/** The convention's limits on a name and a description. */
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
/** Lowercase letters and digits in hyphen-separated words: also a safe folder name. */
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

interface SkillManifest {
  name: string;
  /** The line of `name:` in SKILL.md. */
  nameLine: number;
  description: string;
  /** As written (undefined: no list given); mapped to Keel's tools by skill-tools.ts. */
  tools: string[] | undefined;
  instructions: string;
}

export type ParsedSkill = { ok: true; skill: SkillManifest } | { ok: false; line: number; message: string };

/** Why a name cannot be a skill's name (undefined: it can). */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > NAME_MAX) return `a skill name has 1 to ${NAME_MAX} characters`;
  if (!NAME_PATTERN.test(name)) return 'a skill name has lowercase letters, digits and single hyphens between them (like "pdf-forms")';
  return undefined;
}

export function parseSkillFile(text: string): ParsedSkill {
  const parsed = parseFrontMatter(text, 'SKILL.md');
  if (!parsed.ok) return fail(parsed.line, parsed.message);
  const { data, lineOf, body } = parsed.matter;
  const fieldLine = (key: string) => lineOf(key) ?? 2;
  const name = data.name;
  if (typeof name !== 'string') return fail(fieldLine('name'), 'the field "name" is missing or not text');
  const nameProblem = skillNameProblem(name);
  if (nameProblem) return fail(fieldLine('name'), `invalid name "${name}": ${nameProblem}`);
  const description = data.description;
  if (typeof description !== 'string' || description.trim() === '')
    return fail(fieldLine('description'), 'the field "description" is missing or empty: say what the skill does and when to use it');
  if (description.length > DESCRIPTION_MAX)
    return fail(fieldLine('description'), `the description has ${description.length} characters; at most ${DESCRIPTION_MAX}`);
  if (data.tools !== undefined && data['allowed-tools'] !== undefined)
    return fail(fieldLine('allowed-tools'), 'give the tool list once, as "tools" or as "allowed-tools"');
  const key = data.tools !== undefined ? 'tools' : 'allowed-tools';
  const tools = nameList(data[key]);
  if (tools === null) return fail(fieldLine(key), `"${key}" must be a list of tool names, or one line of them`);
  return { ok: true, skill: { name, nameLine: fieldLine('name'), description: description.trim(), tools, instructions: body } };
}

function fail(line: number, message: string): ParsedSkill {
  return { ok: false, line, message };
}
