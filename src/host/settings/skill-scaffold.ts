// What `Keel: New Skill` writes: `.keel/skills/NAME/SKILL.md` with the front matter the Agent
// Skills convention reads and a commented tool list. No vscode import, so it is unit-tested.
import { skillNameProblem } from '../../compose/skills/skill-file.js';
import { WORKSPACE_SKILLS_FOLDER } from '../../compose/skills/skill-source.js';

export function newSkillFile(name: string): string {
  return `${WORKSPACE_SKILLS_FOLDER}/${name}/SKILL.md`;
}

/** Why `name` cannot be a new skill's name here (undefined: it can). */
export async function newSkillProblem(name: string, exists: (path: string) => Promise<boolean>): Promise<string | undefined> {
  const problem = skillNameProblem(name);
  if (problem) return `Not a skill name: ${problem}.`;
  if (await exists(`${WORKSPACE_SKILLS_FOLDER}/${name}`)) return `${WORKSPACE_SKILLS_FOLDER}/${name} already exists.`;
  return undefined;
}

export function skillTemplate(name: string): string {
  return `---
name: ${name}
description: Say what this skill does and when to use it. The model sees only this line until it loads the skill.
# Optional: the only tools Keel offers while this skill is active (use_skill stays available).
# tools: [read_file, search_files, list_files]
---

# ${name}

Steps for the model to follow when this skill applies. Other files in this folder are the
skill's resources: name them here, and the model reads them with use_skill.
`;
}
