// Reading SKILL.md and a folder of skills: good files load with their resources, a bad one is
// skipped with its file and line while the others load, and names and sizes are checked.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeSkillProblem, loadSkills } from '../../../src/compose/skills/load-skills.js';
import { parseSkillFile, SKILL_FILE_MAX_BYTES } from '../../../src/compose/skills/skill-file.js';
import { workspaceSkillSource } from '../../../src/compose/skills/skill-source.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { userSkillFolder, userSkillsDir } from '../../../src/node/skill-folder.js';
import { scratchDir } from '../../support/scratch.js';

const KNOWN = new Set(['read_file', 'list_files', 'search_files', 'edit_file', 'write_file', 'run_command', 'use_skill']);

function skillDir(root: string, name: string, text: string, extra: Record<string, string> = {}): void {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
  for (const [rel, body] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  }
}

describe('SKILL.md', () => {
  it('reads name, description, the tool list and the instructions after the front matter', () => {
    const parsed = parseSkillFile(
      '---\nname: pdf-forms\ndescription: Fill PDF forms.\ntools: [read_file, edit_file]\n---\n# Steps\nDo it.\n',
    );
    assert.ok(parsed.ok);
    assert.equal(parsed.skill.name, 'pdf-forms');
    assert.equal(parsed.skill.description, 'Fill PDF forms.');
    assert.deepEqual(parsed.skill.tools, ['read_file', 'edit_file']);
    assert.equal(parsed.skill.instructions, '# Steps\nDo it.\n');
  });

  it("accepts other agents' files unchanged: allowed-tools as one line, extra fields, CRLF", () => {
    const text =
      '---\r\nname: git-notes\r\ndescription: >\r\n  Write notes.\r\nlicense: MIT\r\nmetadata:\r\n  author: x\r\nallowed-tools: Read, Bash(git log:*) Grep\r\n---\r\nBody';
    const parsed = parseSkillFile(text);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.deepEqual(parsed.skill.tools, ['Read', 'Bash(git log:*)', 'Grep']);
    assert.equal(parsed.skill.description, 'Write notes.');
  });

  it('names the line of bad YAML, of a missing or invalid field, and of a mismatched name', () => {
    const bad = parseSkillFile('---\nname: a\ndescription: [unclosed\nother: 1\n---\n');
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && bad.line >= 3 && bad.line <= 5, JSON.stringify(bad));
    assert.match(!bad.ok ? bad.message : '', /invalid YAML/);

    const noName = parseSkillFile('---\ndescription: d\n---\n');
    assert.deepEqual(noName.ok ? undefined : [noName.line, /"name" is missing/.test(noName.message)], [2, true]);

    const badName = parseSkillFile('---\ndescription: d\nname: ../etc\n---\n');
    assert.deepEqual(badName.ok ? undefined : badName.line, 3);
    const upper = parseSkillFile('---\nname: PDF\ndescription: d\n---\n');
    assert.equal(upper.ok, false);

    const notClosed = parseSkillFile('---\nname: a\ndescription: d\n');
    assert.deepEqual(notClosed.ok ? undefined : notClosed.line, 1);
    const noFront = parseSkillFile('# just markdown');
    assert.equal(noFront.ok, false);
    const both = parseSkillFile('---\nname: a\ndescription: d\ntools: [read_file]\nallowed-tools: Read\n---\n');
    assert.deepEqual(both.ok ? undefined : both.line, 5);
    const badTools = parseSkillFile('---\nname: a\ndescription: d\ntools: {x: 1}\n---\n');
    assert.deepEqual(badTools.ok ? undefined : badTools.line, 4);
  });
});

describe('loading skills', () => {
  it('skips a bad skill with its file and line, and loads the others with their resources', async () => {
    const root = scratchDir('skills-load');
    const ws = await createNodeWorkspace(root);
    const dir = path.join(root, '.keel/skills');
    skillDir(dir, 'good', '---\nname: good\ndescription: Works.\n---\nDo the thing.', {
      'references/guide.md': 'guide',
      'scripts/run.sh': 'echo',
      '.hidden': 'x',
    });
    skillDir(dir, 'broken', '---\nname: broken\ndescription: "unterminated\n---\n');
    skillDir(dir, 'renamed', '---\ndescription: d\nname: other-name\n---\n');
    skillDir(dir, 'big', `---\nname: big\ndescription: d\n---\n${'x'.repeat(SKILL_FILE_MAX_BYTES)}`);
    skillDir(dir, 'Bad_Folder', '---\nname: bad-folder\ndescription: d\n---\n');
    fs.mkdirSync(path.join(dir, 'empty'));

    const { skills, problems } = await loadSkills([workspaceSkillSource(ws)], KNOWN);
    assert.deepEqual(
      skills.map((s) => [s.name, s.scope, s.file, s.resources]),
      [['good', 'workspace', '.keel/skills/good/SKILL.md', ['references/guide.md', 'scripts/run.sh']]],
    );
    assert.equal(skills[0]!.instructions, 'Do the thing.');
    const lines = problems.map(describeSkillProblem).sort();
    assert.equal(lines.length, 5, lines.join('\n'));
    assert.ok(
      lines.some((l) => /^\.keel\/skills\/broken\/SKILL\.md:\d+: invalid YAML/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes('.keel/skills/renamed/SKILL.md:3: the name "other-name" differs from its folder\'s name "renamed"'),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith('.keel/skills/big/SKILL.md: ') && /at most 65536/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith('.keel/skills/Bad_Folder/SKILL.md: the folder name')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith('.keel/skills/empty/SKILL.md: no SKILL.md')),
      lines.join('\n'),
    );
  });

  it("maps other agents' tool names to Keel's and reports the rest; a user skill wins over the workspace's", async () => {
    const root = scratchDir('skills-user');
    fs.mkdirSync(path.join(root, 'ws'));
    const ws = await createNodeWorkspace(path.join(root, 'ws'));
    const userDir = userSkillsDir({ XDG_CONFIG_HOME: path.join(root, 'config') });
    assert.equal(userDir, path.join(root, 'config', 'keel', 'skills'));
    skillDir(userDir, 'review', '---\nname: review\ndescription: Mine.\nallowed-tools: Read Grep Bash(git diff:*) WebFetch\n---\n');
    skillDir(path.join(root, 'ws/.keel/skills'), 'review', '---\nname: review\ndescription: Theirs.\n---\n');
    const { skills, problems } = await loadSkills([userSkillFolder(userDir), workspaceSkillSource(ws)], KNOWN);
    assert.equal(skills.length, 1);
    assert.equal(skills[0]!.description, 'Mine.');
    assert.deepEqual(skills[0]!.tools, ['read_file', 'search_files', 'run_command']);
    assert.deepEqual(skills[0]!.unknownTools, ['WebFetch']);
    assert.match(describeSkillProblem(problems[0]!), /^\.keel\/skills\/review\/SKILL\.md: skipped: a user skill is named "review" too$/);
  });

  it('never lists or reads through a symbolic link in the user folder', async () => {
    const root = scratchDir('skills-link');
    const userDir = path.join(root, 'skills');
    fs.writeFileSync(path.join(root, 'secret.txt'), 'secret');
    skillDir(userDir, 'linky', '---\nname: linky\ndescription: d\n---\n', { 'real.md': 'ok' });
    fs.symlinkSync(path.join(root, 'secret.txt'), path.join(userDir, 'linky', 'secret.md'));
    const source = userSkillFolder(userDir);
    const { skills } = await loadSkills([source], KNOWN);
    assert.deepEqual(skills[0]!.resources, ['real.md']);
    await assert.rejects(source.read('linky/secret.md', 100), /symbolic link/);
    await assert.rejects(source.read('../secret.txt', 100), /outside the skills folder/);
  });
});
