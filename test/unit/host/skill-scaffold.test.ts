// `Keel: New Skill`: the names it accepts and the file it writes, which must load as a skill.
import assert from 'node:assert/strict';
import { parseSkillFile } from '../../../src/compose/skills/skill-file.js';
import { newSkillFile, newSkillProblem, skillTemplate } from '../../../src/host/settings/skill-scaffold.js';

describe('New Skill scaffold', () => {
  it('writes a SKILL.md that loads as the named skill, with no tool gate until one is written', () => {
    assert.equal(newSkillFile('release-notes'), '.keel/skills/release-notes/SKILL.md');
    const parsed = parseSkillFile(skillTemplate('release-notes'));
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.equal(parsed.skill.name, 'release-notes');
    assert.equal(parsed.skill.tools, undefined);
  });

  it('refuses unsafe names and a folder that exists', async () => {
    const none = async () => false;
    for (const bad of ['', '../x', 'a/b', 'Upper', 'a--b', '-a', 'x'.repeat(65), 'a b'])
      assert.match((await newSkillProblem(bad, none)) ?? '', /Not a skill name/, bad);
    assert.equal(await newSkillProblem('ok-name', none), undefined);
    assert.match((await newSkillProblem('taken', async (p) => p === '.keel/skills/taken')) ?? '', /already exists/);
  });
});
