// The test commands run_tests detects for a project's own toolchain (issue 23) and the runners it
// parses, against the located-runner rule of the policy (issue 20) and the sandbox guarantee
// (issue 36): pnpm and yarn look for their workspace and rc files in every parent folder and,
// through corepack or pnpm's own version management, may download the package manager
// packageManager names; a workspace's .venv/bin/python is a program the workspace wrote; Poetry,
// pipenv and uv run keep environments outside the workspace. Inside the test-run sandbox all of
// that is contained (no network, no home folder, the workspace's parents out of reach), so they
// run unasked there — and ask where there is no sandbox, or it is off. A go.work's `use` naming a
// module outside the workspace still asks; run_tests with no command asks naming the command it detected.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PolicyContext, PolicyDecision, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { createPolicy } from '../../../src/tools/policy/create-policy.js';
import { detectTestCommand } from '../../../src/tools/run-tests/detect-command.js';
import { scratchDir } from '../../support/scratch.js';
import { proposedIntent as intent, toolNamed as tool } from './helpers.js';

async function workspace(name: string, files: Record<string, string>): Promise<Workspace> {
  const root = scratchDir(name);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return createNodeWorkspace(root, { sandbox: { rules: COMMAND_SANDBOX_RULES } });
}

/** What `keel run --approve execute` decides for run_tests, with the command or without (detected). */
async function decide(ws: Workspace, command?: string, sandbox?: 'off'): Promise<PolicyDecision> {
  const policy = createPolicy({ autoApprove: ['read', 'execute'], ...(sandbox ? { sandbox } : {}) });
  const ctx: PolicyContext = { tool: tool('run_tests'), grants: [], workspace: ws };
  return policy.decide(intent('run_tests', command === undefined ? {} : { command }), ctx);
}

const SCRIPT = '{"scripts":{"test":"node --test"}';

describe('policy: the test commands run_tests detects and parses, and where their runner looks', function () {
  this.timeout(30_000);

  const detectedInSandbox: [string, Record<string, string>, string][] = [
    ['pnpm (lock file)', { 'package.json': `${SCRIPT}}`, 'pnpm-lock.yaml': '' }, 'pnpm test'],
    ['yarn (packageManager)', { 'package.json': `${SCRIPT},"packageManager":"yarn@4.1.0"}` }, 'yarn test'],
    ['bun (lock file)', { 'package.json': `${SCRIPT}}`, 'bun.lock': '' }, 'bun run test'],
    ['a workspace venv', { 'pytest.ini': '[pytest]\n', '.venv/bin/python': '#!/bin/sh\n' }, '.venv/bin/python -m pytest'],
    ['uv', { 'pytest.ini': '[pytest]\n', 'uv.lock': '' }, 'uv run --offline python -m pytest'],
    ['Poetry', { 'pytest.ini': '[pytest]\n', 'poetry.lock': '' }, 'poetry run python -m pytest'],
    ['pipenv', { 'pytest.ini': '[pytest]\n', Pipfile: '' }, 'pipenv run python -m pytest'],
  ];
  for (const [what, files, command] of detectedInSandbox)
    it(`runs the command detected for ${what} unasked in the test-run sandbox, and asks with the sandbox off: ${command}`, async () => {
      const ws = await workspace('detected-sandbox', files);
      assert.equal((await detectTestCommand(ws))?.command, command);
      const d = await decide(ws);
      assert.deepEqual([d.type, d.type === 'allow' && d.sandbox], ['allow', 'test_run'], d.reason);
      const off = await decide(ws, undefined, 'off');
      assert.equal(off.type, 'ask', off.reason);
      assert.match(off.reason, /runs unasked only inside the sandbox/);
    });

  it('asks before running a go.work whose `use` names a module outside the workspace', async () => {
    const files = { 'go.work': 'go 1.21\nuse (\n\t./a\n\t../outside\n)\n', 'a/go.mod': 'module a\n' };
    const ws = await workspace('detected-ask', files);
    assert.equal((await detectTestCommand(ws))?.command, 'go test -v ./a/... ../outside/...');
    assert.equal((await decide(ws)).type, 'ask');
  });

  it('runs unasked the detected forms whose runner search ends in the workspace: npm test, cargo test --workspace', async () => {
    const npm = await decide(await workspace('detected-npm', { 'package.json': `${SCRIPT}}` }));
    assert.deepEqual([npm.type, npm.type === 'allow' && npm.sandbox], ['allow', 'test_run'], npm.reason);
    const cargo = await decide(await workspace('detected-cargo', { 'Cargo.toml': '[workspace]\nmembers = ["a"]\n' }));
    assert.deepEqual([cargo.type, cargo.type === 'allow' && cargo.sandbox], ['allow', 'test_run'], cargo.reason);
  });

  it('asks for the runners run_tests parses but the policy has no config-search rule for', async () => {
    const ws = await workspace('parsed-ask', { 'package.json': `${SCRIPT}}`, 'test/a.test.js': '', 'tests/test_a.py': '' });
    const ran: string[] = [];
    for (const command of [
      'npx --no-install ava',
      'npx --no-install tap',
      'npx --no-install uvu test',
      'npx --no-install jasmine',
      'ava',
      'tap',
      'uvu test',
      'jasmine',
      'python3 -m unittest',
      'python3 -m unittest discover -s tests',
    ])
      if ((await decide(ws, command)).type !== 'ask') ran.push(command);
    assert.deepEqual(ran, [], `these would run unasked: ${ran.join(', ')}`);
  });
});
