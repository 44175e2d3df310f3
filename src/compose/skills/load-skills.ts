// Step 2c of composing a runtime, part two: the task's skills, loaded once when it starts (like
// the rules files). The user's skills come first, then the workspace's (none from an untrusted
// workspace: the host leaves that source out); a workspace skill with a user skill's name is
// skipped, so a repository cannot replace the user's own instructions. A skill with a problem
// is skipped and reported with its file and line; the others load.
import type { SkillEntry } from '../../tools/skills/use-skill.js';
import { parseSkillFile, SKILL_FILE_MAX_BYTES, skillNameProblem } from './skill-file.js';
import type { SkillSource } from './skill-source.js';
import { keelTools } from './skill-tools.js';

/** How many skills one task loads at most (their descriptions are in every request). */
const MAX_SKILLS = 64;
/** How many resource files of one skill are listed, and how deep its folders are walked. */
const MAX_RESOURCES = 200;
const MAX_DEPTH = 4;
const SKILL_FILE = 'SKILL.md';

export interface SkillProblem {
  /** The file (or folder) at fault, as people see it. */
  file: string;
  /** 1-based line in that file; absent when the problem is not on a line. */
  line?: number;
  message: string;
}

export interface LoadedSkills {
  skills: SkillEntry[];
  problems: SkillProblem[];
}

/** Skills from the sources in order of precedence, sorted by name. `known`: the run's tool names. */
export async function loadSkills(sources: readonly SkillSource[], known: ReadonlySet<string>): Promise<LoadedSkills> {
  const out: LoadedSkills = { skills: [], problems: [] };
  for (const source of sources) {
    const folders = (await source.list('')).filter((e) => e.type === 'directory').map((e) => e.name);
    for (const folder of folders.sort()) {
      const file = `${source.label}/${folder}/${SKILL_FILE}`;
      const loaded = await loadOne(source, folder, known).catch((err: unknown) => problem(`cannot be read (${(err as Error).message})`));
      if ('message' in loaded) out.problems.push({ file, ...loaded });
      else if (out.skills.some((s) => s.name === loaded.name))
        out.problems.push({
          file,
          message: `skipped: a ${out.skills.find((s) => s.name === loaded.name)!.scope} skill is named "${loaded.name}" too`,
        });
      else if (out.skills.length >= MAX_SKILLS) out.problems.push({ file, message: `skipped: at most ${MAX_SKILLS} skills are loaded` });
      else out.skills.push(loaded);
    }
  }
  out.skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

type Loaded = SkillEntry | { line?: number; message: string };

async function loadOne(source: SkillSource, folder: string, known: ReadonlySet<string>): Promise<Loaded> {
  const folderProblem = skillNameProblem(folder);
  if (folderProblem) return problem(`the folder name "${folder}" cannot be a skill's name: ${folderProblem}`);
  const entries = await source.list(folder);
  if (!entries.some((e) => e.name === SKILL_FILE && e.type === 'file')) return problem(`no ${SKILL_FILE} in the folder`);
  const { data, size } = await source.read(`${folder}/${SKILL_FILE}`, SKILL_FILE_MAX_BYTES);
  if (size > SKILL_FILE_MAX_BYTES) return problem(`${size} bytes; a ${SKILL_FILE} may have at most ${SKILL_FILE_MAX_BYTES}`);
  const parsed = parseSkillFile(new TextDecoder().decode(data));
  if (!parsed.ok) return { line: parsed.line, message: parsed.message };
  const m = parsed.skill;
  if (m.name !== folder) return { line: m.nameLine, message: `the name "${m.name}" differs from its folder's name "${folder}"` };
  const tools = m.tools === undefined ? undefined : keelTools(m.tools, known);
  return {
    name: m.name,
    description: m.description,
    scope: source.scope,
    file: `${source.label}/${folder}/${SKILL_FILE}`,
    instructions: m.instructions,
    tools: tools?.tools,
    unknownTools: tools?.unknown ?? [],
    resources: await resourcesOf(source, folder),
  };
}

/** The skill's other files, relative to its folder: plain files only, no dot-files, bounded. */
async function resourcesOf(source: SkillSource, folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (rel: string, depth: number): Promise<void> => {
    const entries = await source.list(rel === '' ? folder : `${folder}/${rel}`);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (found.length >= MAX_RESOURCES || e.name.startsWith('.')) continue;
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.type === 'file' && path !== SKILL_FILE) found.push(path);
      else if (e.type === 'directory' && depth < MAX_DEPTH) await walk(path, depth + 1);
    }
  };
  await walk('', 1);
  return found.sort();
}

function problem(message: string): { message: string } {
  return { message };
}

/** A problem as one line: `file:line: message`. */
export function describeSkillProblem(p: SkillProblem): string {
  return `${p.file}${p.line === undefined ? '' : `:${p.line}`}: ${p.message}`;
}
