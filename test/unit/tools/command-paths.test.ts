// The policy checks the files a command names the way the kernel will open them.
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Grant, PolicyContext, PolicyDecision } from '../../../src/kernel/index.js';
import { createPolicy, type PolicyOptions } from '../../../src/tools/policy/create-policy.js';
import { removeAtExit } from '../../support/scratch.js';
import { proposedIntent as intent, type TempWorkspace, tempWorkspace, toolNamed as tool } from './helpers.js';

describe('createPolicy: the paths a command names', () => {
  let t: TempWorkspace;
  let outsideDir: string;
  const decide = (
    input: Record<string, unknown>,
    opts: PolicyOptions = { autoApprove: ['execute'] },
    name = 'run_command',
    grants: Grant[] = [],
  ) => {
    const ctx: PolicyContext = { tool: tool(name), grants, workspace: t.ws };
    return createPolicy(opts).decide(intent(name, input), ctx);
  };
  const expect = async (command: string, type: PolicyDecision['type'], reason?: RegExp, cwd?: string) => {
    const d = await decide({ command, ...(cwd ? { cwd } : {}) });
    assert.equal(d.type, type, `${command}: ${d.reason}`);
    if (reason) assert.match(d.reason, reason, command);
  };

  before(async () => {
    t = await tempWorkspace({
      'src/a.ts': 'a',
      'src/b.ts': 'b',
      'package.json': '{}',
      '.env': 'KEY=1',
      'config/.env.local': 'KEY=2',
      'config/app.json': '{}',
      'clean/x.txt': 'x',
      'pair/a.txt': 'a',
      'pair/b.txt': 'b',
      'dashes/-n': '',
      'dashes/ok': '',
      'test/a.test.mjs': '',
    });
    outsideDir = `${t.dir}-outside`;
    removeAtExit(outsideDir);
    await mkdir(path.join(outsideDir, 'inner'), { recursive: true });
    await writeFile(path.join(outsideDir, 'secret.txt'), 'secret');
    await symlink(path.join(outsideDir, 'inner'), path.join(t.dir, 'link'));
    await symlink(path.join(outsideDir, 'secret.txt'), path.join(t.dir, 'src', 'evil.ts'));
    await mkdir(path.join(t.dir, 'withlink'));
    await symlink(path.join(outsideDir, 'secret.txt'), path.join(t.dir, 'withlink', 'x'));
    await mkdir(path.join(t.dir, 'wide'));
    await symlink(path.join(outsideDir, 'secret.txt'), path.join(t.dir, 'wide', '\u{1F600}'));
  });

  it('expands globs as bash does: POSIX classes inside brackets, one character for ? outside the BMP', async () => {
    // Bash expands each of these to a link that leads outside, or to .env.
    await expect('cat withlink/[[:alpha:]]', 'ask', /outside/);
    await expect('cat withlink/[[=x=]]', 'ask', /outside/);
    await expect('cat .en[[:lower:]]', 'ask', /\.env/);
    await expect('cat wide/?', 'ask', /outside/);
  });

  it('counts a glob as any number of operands where the count decides what is written', async () => {
    // `uniq pair/*` expands to two files, and uniq overwrites the second.
    await expect('uniq pair/*', 'ask', /second operand/);
    await expect('uniq pair/a.txt', 'allow');
  });
  after(() => t.cleanup());

  it('auto-approves read-only commands that read inside the workspace', async () => {
    for (const command of [
      'cat src/a.ts package.json',
      'cat clean/*',
      'grep -r x clean',
      'rg x src/a.ts',
      'cd src && cat a.ts',
      'ls ..'.replace('..', '.'),
    ])
      await expect(command, 'allow');
    await expect('cat a.ts', 'allow', undefined, 'src');
  });

  it('asks when a read-only command reads outside the workspace', async () => {
    for (const command of [
      'cat ../x',
      'cat ~/.ssh/id_rsa',
      'ls ~',
      'cat /etc/passwd',
      'cat /proc/self/environ',
      `cat ${outsideDir}/secret.txt`,
      'cat link/../secret.txt',
      'cd link && cat ../secret.txt',
      'cd .. && cat x',
      'cd src; cat ../../x',
      'git -C .. log',
      'git show HEAD:../x',
      'head -n 1 src/evil.ts',
      'grep -f ../patterns src/a.ts',
    ])
      await expect(command, 'ask', /outside the workspace/);
    await expect('cat ../../x', 'ask', /outside the workspace/, 'src');
  });

  it('asks before a read-only command reads a secret, directly, by glob or by searching a folder', async () => {
    for (const command of [
      'cat .env',
      'cat config/.env.local',
      'cat config/.e*',
      'grep -r KEY .',
      'grep -r KEY config',
      'rg KEY',
      'rg -uu KEY config',
      'git show HEAD:.env',
      'git grep KEY -- .env',
      'cd config && head .env.local',
    ])
      await expect(command, 'ask', /secret/);
    await expect('cat config/app.json', 'allow');
  });

  it('expands globs against the workspace: a match that leads outside or looks like an option asks', async () => {
    await expect('cat src/*.ts', 'ask', /outside the workspace/);
    await expect('cat src/[ab].ts', 'allow');
    await expect('wc -l dashes/*', 'ask', /option/);
    await expect('cat clean/../src/?.ts', 'allow');
    await expect('cat */*.ts', 'ask', /outside the workspace/);
    await expect('cat ../*', 'ask', /outside the workspace/);
  });

  it('asks when a program given a folder would follow a link out of it (diff)', async () => {
    await expect('diff clean withlink', 'ask', /link/);
    await expect('diff clean/x.txt src/a.ts', 'allow');
  });

  it('refuses a write outside the workspace and asks for a protected one, even when that command was approved', async () => {
    const granted = (command: string): Grant[] => [{ tool: 'run_command', command, scope: 'workspace' }];
    for (const command of ['echo x > ../out', 'echo x > /tmp/keel-never', 'ls 2>> ~/log', 'echo x > link/y', 'cd .. && echo x > y']) {
      const d = await decide({ command }, { autoApprove: ['execute'] }, 'run_command', granted(command));
      assert.equal(d.type, 'deny', `${command}: ${d.reason}`);
    }
    for (const command of ['echo x > .git/config', 'echo x >> package.json', 'cd .vscode && echo x > tasks.json']) {
      const d = await decide({ command }, { autoApprove: ['execute'] }, 'run_command', granted(command));
      assert.equal(d.type, 'ask', `${command}: ${d.reason}`);
      assert.match(d.reason, /always asks/);
    }
    assert.equal((await decide({ command: 'echo x > out.txt' })).type, 'ask');
    assert.equal((await decide({ command: 'echo x > out.txt' }, {}, 'run_command', granted('echo x > out.txt'))).type, 'allow');
  });

  it('a read outside asks even when the command would be auto-approved, unless that exact command was approved', async () => {
    const grants: Grant[] = [{ tool: 'run_command', command: 'cat ../x', scope: 'task' }];
    assert.equal((await decide({ command: 'cat ../x' }, { autoApprove: ['execute'] }, 'run_command', grants)).type, 'allow');
  });

  it('classifies run_tests {command} like run_command, flags and all, and checks its paths', async () => {
    const runTests = (command: string) => decide({ command }, { autoApprove: ['execute'] }, 'run_tests');
    assert.equal((await runTests('node --test test/')).type, 'allow');
    assert.equal((await runTests('node --test ../elsewhere')).type, 'ask');
    assert.equal((await runTests(`node --test ${outsideDir}`)).type, 'ask');
    assert.equal((await runTests('node --test --import "data:text/javascript,1"')).type, 'ask');
    assert.equal((await runTests('node -e "process.exit(0)"')).type, 'ask');
    assert.equal((await runTests('npx mocha')).type, 'ask');
  });

  it('approves the detected test command as detected: npm test, or a runner that never downloads', async () => {
    for (const [files, command] of [
      [{ 'package.json': JSON.stringify({ scripts: { test: 'mocha' } }) }, 'npm test'],
      [{ 'package.json': JSON.stringify({ devDependencies: { mocha: '1' } }), '.mocharc.yml': 'spec: test\n' }, 'npx --no-install mocha'],
    ] as const) {
      const w = await tempWorkspace(files);
      const ctx: PolicyContext = { tool: tool('run_tests'), grants: [], workspace: w.ws };
      const d = await createPolicy({ autoApprove: ['execute'] }).decide(intent('run_tests', {}), ctx);
      assert.equal(d.type, 'allow', `${command}: ${d.reason}`);
      const asked = await createPolicy().decide(intent('run_tests', {}), ctx);
      assert.equal(asked.type === 'ask' && asked.command, command, 'the command the card shows whole');
      await w.cleanup();
    }
  });
});
