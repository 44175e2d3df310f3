// `keel run` loads skills as the extension does: the user's from the config folder and the
// workspace's `.keel/skills`, naming them in the prompt, and reports a skipped one on stderr
// with its file and line while the run goes on.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnKeel } from '../../support/keel-cli.js';
import { scratchDir } from '../../support/scratch.js';

describe('keel run with skills', function () {
  this.timeout(60_000);

  it('reports a skipped skill with its file and line on stderr, and still runs', async () => {
    const dir = scratchDir('cli-skills');
    const ws = path.join(dir, 'ws');
    const userSkills = path.join(dir, 'config', 'keel', 'skills');
    fs.mkdirSync(path.join(ws, '.keel/skills/broken'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.keel/skills/broken/SKILL.md'), '---\nname: broken\ndescription: [oops\n---\n');
    fs.mkdirSync(path.join(userSkills, 'Not_Valid'), { recursive: true });
    fs.writeFileSync(path.join(userSkills, 'Not_Valid/SKILL.md'), '---\nname: x\ndescription: d\n---\n');
    const run = await spawnKeel(['run', '--provider', 'scripted', '--workspace', ws, 'say hi'], ws, {
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_CACHE_HOME: path.join(dir, 'cache'),
    });
    assert.match(run.stderr, /keel: skipped a skill: \.keel\/skills\/broken\/SKILL\.md:3: invalid YAML/);
    assert.ok(run.stderr.includes(`keel: skipped a skill: ${path.join(userSkills, 'Not_Valid')}/SKILL.md: the folder name`), run.stderr);
    assert.notEqual(run.code, 2, run.stderr);
  });
});
