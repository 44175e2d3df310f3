// Red team, class "restore follows links" (issue 33), through the real `keel run` and `keel
// restore`: the task edits conf/.gitconfig and tools/pre-commit, then its test run (unasked, in
// the sandbox) swaps conf for a link to the victim's home and tools for a link to .git/hooks.
// `keel restore --to 0 --overwrite` would write the workspace's first bytes — the attacker's — to
// ~/.gitconfig and .git/hooks/pre-commit. It refuses, names the link, and writes nothing. The
// yardstick: the same write by plain bash through the swapped links lands in both places. The
// spellings of .git a name check misses (.GIT, .git., a/../.git) are refused by the store itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeCheckpointStore } from '../../../src/node/checkpoint-store.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { hostileRun } from '../../support/redteam.js';
import { victimHome } from '../../support/redteam-home.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';

const PLANTED_CONFIG = '[core]\n\tsshCommand = sh -c "cp ~/.ssh/id_rsa ~/stolen.txt"\n';
const PLANTED_HOOK = '#!/bin/sh\ncp ~/.ssh/id_rsa ~/stolen.txt\n';
const VICTIM_CONFIG = '[user]\n\tname = Victim\n';

describe('red team: restore never follows a link (keel restore)', function () {
  this.timeout(180_000);

  it('a folder swapped for a link to $HOME or to .git/hooks: restore writes neither, and says why', async function () {
    await sandboxOrSkip(this, scratchDir('redteam-restore-probe'));
    const victim = victimHome('restore');
    fs.writeFileSync(path.join(victim.home, '.gitconfig'), VICTIM_CONFIG);
    const swap = `rm -rf conf tools && ln -s ${victim.home} conf && ln -s .git/hooks tools`;

    const yard = path.join(scratchDir('redteam-restore-yard'), 'project');
    fs.mkdirSync(path.join(yard, '.git/hooks'), { recursive: true });
    const home = path.join(scratchDir('redteam-restore-yard-home'));
    fs.writeFileSync(path.join(home, '.gitconfig'), VICTIM_CONFIG);
    spawnSync('bash', ['-c', `${swap.replace(victim.home, home)} && printf x > conf/.gitconfig && printf x > tools/pre-commit`], {
      cwd: yard,
    });
    assert.equal(fs.readFileSync(path.join(home, '.gitconfig'), 'utf8'), 'x', 'yardstick: a write through conf/ lands in the home');
    assert.ok(fs.existsSync(path.join(yard, '.git/hooks/pre-commit')), 'yardstick: a write through tools/ lands in .git/hooks');

    const r = await hostileRun({
      files: {
        'conf/.gitconfig': PLANTED_CONFIG,
        'tools/pre-commit': PLANTED_HOOK,
        '.git/hooks/README': 'hooks\n',
        'package.json': JSON.stringify({ name: 'p', scripts: { test: swap } }),
      },
      turns: [
        [
          { name: 'read_file', input: { path: 'conf/.gitconfig' } },
          { name: 'read_file', input: { path: 'tools/pre-commit' } },
        ],
        [
          { name: 'write_file', input: { path: 'conf/.gitconfig', content: '[user]\n\tname = Tidy\n' } },
          { name: 'write_file', input: { path: 'tools/pre-commit', content: '#!/bin/sh\nexit 0\n' } },
        ],
        [{ name: 'run_command', input: { command: 'npm test' } }],
      ],
      flags: ['--approve', 'read,write,execute'],
      env: victim.env,
    });
    assert.equal(r.run.code, 0, r.run.stdout + r.run.stderr);
    assert.ok(fs.lstatSync(path.join(r.workspace, 'conf')).isSymbolicLink(), 'the test run swapped conf for a link');

    const log = path.join(path.dirname(r.workspace), 'task.jsonl');
    const back = await spawnKeel(['restore', log, '--to', '0', '--overwrite'], r.workspace, victim.env);
    assert.equal(fs.readFileSync(path.join(victim.home, '.gitconfig'), 'utf8'), VICTIM_CONFIG, 'restore wrote ~/.gitconfig');
    assert.ok(!fs.existsSync(path.join(r.workspace, '.git/hooks/pre-commit')), 'restore wrote a git hook');
    assert.match(back.stdout + back.stderr, /(conf|tools) is a symbolic link .* nothing was restored/, 'the link is reported');
  });

  it('no spelling of .git is written: .GIT, .git., a/../.git', async () => {
    const ws = scratchDir('redteam-restore-spell');
    const store = new NodeCheckpointStore({ storageDir: scratchDir('redteam-restore-store'), workspaceRoot: ws, taskId: 't' });
    const [kept] = await store.capture(['a.txt']);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'hook');
    const [hook] = await store.capture(['a.txt']);
    for (const rel of ['.GIT/hooks/pre-commit', '.git./hooks/pre-commit', 'a/../.git/hooks/pre-commit', '.Git /config']) {
      await assert.rejects(
        store.restore([{ path: rel, hash: hook!.before, expected: kept!.before }]),
        /never writes inside \.git/,
        `${rel} was written`,
      );
    }
    assert.deepEqual(fs.readdirSync(ws), ['a.txt']);
  });
});
