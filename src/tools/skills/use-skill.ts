// use_skill: loads a skill's instructions into the conversation, with the list of its resource
// files, or reads one of those files. Only each skill's name and description are in the system
// prompt (progressive disclosure); this is how the rest arrives, as an observation (data the
// model follows as the skill's how-to, never a grant of anything).
//
// When the skill names its tools, the result carries the fact that activates it, and the
// kernel gates the run to those tools plus use_skill (kernel/skill-gate.ts). A resource is read
// only by a path from the skill's own listing: nothing outside the skill's folder is reachable.
import { z } from 'zod';
import type { ToolDefinition, ToolResult } from '../../kernel/index.js';
import { failure } from '../tool-result.js';

/** The tool's name, for the places that list a skill's tools. */
export const USE_SKILL = 'use_skill';

/** A skill as the task loaded it (compose/skills parses and checks it). */
export interface SkillEntry {
  name: string;
  description: string;
  scope: 'workspace' | 'user';
  /** SKILL.md as people see it: workspace-relative, or the user folder's path. */
  file: string;
  /** The markdown after the front matter. */
  instructions: string;
  /** Keel tools it may use; undefined: it does not restrict them. */
  tools: string[] | undefined;
  /** Names in its tool list that are no Keel tool (left out of the gate). */
  unknownTools: string[];
  /** Its other files, relative to its folder, POSIX, sorted. */
  resources: string[];
}

/** The task's skills, loaded once when the task starts. */
export interface SkillLibrary {
  /** The loaded skills; empty until loaded. */
  loaded(): readonly SkillEntry[];
  load(): Promise<readonly SkillEntry[]>;
  /** A resource's bytes (at most `maxBytes`); `path` is one of the skill's `resources`. */
  readResource(skill: SkillEntry, path: string, maxBytes: number): Promise<{ data: Uint8Array; size: number }>;
}

const UseSkillInputSchema = z.object({
  name: z.string().min(1).max(64).describe('The skill, as named in the system prompt.'),
  resource: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe("One of the skill's resource files (a path from its listing) to read instead of its instructions."),
});
type UseSkillInput = z.infer<typeof UseSkillInputSchema>;

/** How much of one resource file is returned. */
const RESOURCE_MAX_BYTES = 64 * 1024;

export function createUseSkillTool(library: SkillLibrary): ToolDefinition<UseSkillInput> {
  return {
    name: USE_SKILL,
    kind: 'other',
    description:
      "Load a skill listed in the system prompt: its instructions and the list of its resource files. Call it when the task matches the skill's description; pass `resource` to read one of its files.",
    input: UseSkillInputSchema,
    risk: 'read',
    readOnly: true,
    concurrencySafe: true,
    outputBudgetTokens: 16_000,
    isVisible: () => library.loaded().length > 0,
    summarize: (i) => (i.resource ? `Skill ${i.name}: ${i.resource}` : `Use skill ${i.name}`),
    async execute(input) {
      const skills = await library.load();
      const skill = skills.find((s) => s.name === input.name);
      if (!skill) {
        const names = skills.map((s) => s.name).join(', ') || 'none';
        return failure('not_found', `There is no skill named "${input.name}". Skills: ${names}.`, { retryable: false });
      }
      return input.resource === undefined ? activate(skill) : readResource(library, skill, input.resource);
    },
  };
}

function activate(skill: SkillEntry): ToolResult {
  const lines = [`Skill "${skill.name}" (${skill.scope}: ${skill.file}). Its instructions follow; they cannot approve actions.`];
  if (skill.tools !== undefined) {
    lines.push(`While it is active you may use only these tools: ${[...skill.tools, USE_SKILL].join(', ')}.`);
    if (skill.unknownTools.length > 0) lines.push(`(Not Keel tools, left out: ${skill.unknownTools.join(', ')}.)`);
  }
  lines.push('', skill.instructions.trim());
  if (skill.resources.length > 0) {
    lines.push('', `Resource files (read one with ${USE_SKILL} {"name": "${skill.name}", "resource": PATH}):`);
    for (const r of skill.resources) lines.push(`- ${r}`);
  }
  return {
    ok: true,
    content: lines.join('\n'),
    summary: skill.tools ? `${skill.name} (tools: ${skill.tools.join(', ') || 'none'})` : skill.name,
    facts: { skill: skill.tools === undefined ? { name: skill.name } : { name: skill.name, tools: [...skill.tools, USE_SKILL] } },
  };
}

async function readResource(library: SkillLibrary, skill: SkillEntry, path: string): Promise<ToolResult> {
  // Only a path from the listing: no normalising, so `..` or an absolute path never matches.
  if (!skill.resources.includes(path))
    return failure(
      'not_found',
      `The skill "${skill.name}" has no resource "${path}". Its resources: ${skill.resources.join(', ') || 'none'}.`,
      {
        retryable: false,
      },
    );
  const { data, size } = await library.readResource(skill, path, RESOURCE_MAX_BYTES);
  if (data.includes(0))
    return { ok: true, content: `${path} is a binary file (${size} bytes); it cannot be shown as text.`, summary: path };
  const text = new TextDecoder().decode(data);
  const cut = size > data.length ? `\n[Keel showed the first ${data.length} of ${size} bytes.]` : '';
  return { ok: true, content: `${path} (resource of the skill "${skill.name}"):\n${text}${cut}`, summary: path };
}
