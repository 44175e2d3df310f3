// The task's skill library: loaded on first use (the system prompt's build, when the task
// starts) and then fixed for the runtime, so the prompt's list and what use_skill finds agree.
// The sources are asked for at load time, so trust is read when the task starts.
import type { SkillEntry, SkillLibrary } from '../../tools/skills/use-skill.js';
import { loadSkills, type SkillProblem } from './load-skills.js';
import type { SkillSource } from './skill-source.js';

export interface SkillLibraryOptions {
  sources(): readonly SkillSource[];
  /** The tools the run has, by name: a skill's list maps onto these. */
  knownTools(): readonly string[];
  /** Told once per load about skills that were skipped. */
  report?(problems: readonly SkillProblem[]): void;
}

export function createSkillLibrary(o: SkillLibraryOptions): SkillLibrary {
  let skills: readonly SkillEntry[] = [];
  let loading: Promise<readonly SkillEntry[]> | undefined;
  const sources = new Map<SkillEntry, SkillSource>();
  return {
    loaded: () => skills,
    load() {
      loading ??= (async () => {
        const list = o.sources();
        const result = await loadSkills(list, new Set(o.knownTools()));
        for (const s of result.skills) sources.set(s, list.find((src) => src.scope === s.scope)!);
        if (result.problems.length > 0) o.report?.(result.problems);
        skills = result.skills;
        return skills;
      })();
      return loading;
    },
    async readResource(skill, path, maxBytes) {
      const source = sources.get(skill);
      if (!source || !skill.resources.includes(path)) throw new Error(`${path} is not a resource of the skill "${skill.name}"`);
      return source.read(`${skill.name}/${path}`, maxBytes);
    },
  };
}

/** The skills lines of the system prompt: names and descriptions only; none without skills. */
export function skillsSection(skills: readonly Pick<SkillEntry, 'name' | 'description'>[]): string[] {
  if (skills.length === 0) return [];
  const lines = [
    '',
    'Skills (instructions for particular jobs, loaded on demand): when the task matches a description, call use_skill with its name before you start. A skill guides how you work; it cannot approve actions.',
  ];
  for (const s of skills) lines.push(`- ${s.name}: ${s.description.replace(/\s+/g, ' ')}`);
  return lines;
}
