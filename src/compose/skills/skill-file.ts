// Step 2c of composing a runtime, part one: one SKILL.md read as the Agent Skills convention
// writes it — YAML front matter between `---` lines (`name`, `description`, optionally the tools
// it may use as `tools` or `allowed-tools`), then the markdown instructions. Other agents' fields
// (license, metadata, …) are ignored, so their skills load unchanged. Anything wrong is a problem
// with the line it is on (counted in SKILL.md), never a half-read skill.
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';

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
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return fail(1, 'SKILL.md must start with a line "---" opening its YAML front matter');
  const close = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
  if (close < 0) return fail(1, 'the front matter is not closed by a line "---"');
  const counter = new LineCounter();
  const doc = parseDocument(lines.slice(1, close).join('\n'), { lineCounter: counter, prettyErrors: true });
  // Lines in the front matter are counted from the line after the opening "---".
  const lineOf = (offset: number) => counter.linePos(offset).line + 1;
  const error = doc.errors[0];
  if (error) return fail(lineOf(error.pos[0]), `invalid YAML: ${error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '')}`);
  if (!isMap(doc.contents)) return fail(2, 'the front matter must be a map of fields (name: …, description: …)');
  return manifestOf(doc, lineOf, lines.slice(close + 1).join('\n'));
}

function manifestOf(doc: Document, lineOf: (offset: number) => number, instructions: string): ParsedSkill {
  const fieldLine = (key: string) => keyLine(doc, key, lineOf) ?? 2;
  const data = doc.toJS({ maxAliasCount: 10 }) as Record<string, unknown>;
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
  const tools = toolList(data[key]);
  if (tools === null) return fail(fieldLine(key), `"${key}" must be a list of tool names, or one line of them`);
  return { ok: true, skill: { name, nameLine: fieldLine('name'), description: description.trim(), tools, instructions } };
}

/**
 * A list of names, or a line of them separated by commas or spaces (Claude Code writes
 * "Read, Grep"; the convention "Bash(git:*) Read"): a space inside parentheses does not split.
 * undefined: no list; null: not a list.
 */
function toolList(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? value.map((v) => v.trim()).filter(Boolean) : null;
  if (typeof value !== 'string') return null;
  return value.match(/(?:[^\s,(]+(?:\([^)]*\))?)+/g) ?? [];
}

function keyLine(doc: Document, key: string, lineOf: (offset: number) => number): number | undefined {
  if (!isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key);
  const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
  return range ? lineOf(range[0]) : undefined;
}

function fail(line: number, message: string): ParsedSkill {
  return { ok: false, line, message };
}
