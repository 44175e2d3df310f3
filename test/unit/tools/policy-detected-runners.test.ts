// The test commands run_tests detects for a project's own toolchain (issue 23) and the runners it
// parses, against the located-runner rule of the policy (issue 20): a form runs unasked only when
// it is a runner form whose configuration search runner-roots.ts bounds. pnpm and yarn look for
// their workspace and rc files in every parent folder (yarn's yarnPath runs a file) and, through
// corepack or pnpm's own version management, may download the package manager packageManager
// names; a workspace's .venv/bin/python is a program the workspace wrote; uv, Poetry and pipenv
// `run` create and sync environments from the network; a go.work's `use` may name modules outside
// the workspace; deno looks for deno.json upwards. Each of these asks; run_tests with no command
// asks naming the command it detected.
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
async function decide(ws: Workspace, command?: string): Promise<PolicyDecision> {
  const policy = createPolicy({ autoApprove: ['read', 'execute'] });
  const ctx: PolicyContext = { tool: tool('run_tests'), grants: [], workspace: ws };
  return policy.decide(intent('run_tests', command === undefined ? {} : { command }), ctx);
}

const SCRIPT = '{"scripts":{"test":"node --test"}';

describe('policy: the test commands run_tests detects and parses, and where their runner looks', function () {
  this.timeout(30_000);

  const detectedAsk: [string, Record<string, string>, string][] = [
    ['pnpm (lock file)', { 'package.json': `${SCRIPT}}`, 'pnpm-lock.yaml': '' }, 'pnpm test'],
    ['yarn (packageManager)', { 'package.json': `${SCRIPT},"packageManager":"yarn@4.1.0"}` }, 'yarn test'],
    ['bun (lock file)', { 'package.json': `${SCRIPT}}`, 'bun.lock': '' }, 'bun run test'],
    ['a workspace venv', { 'pytest.ini': '[pytest]\n', '.venv/bin/python': '#!/bin/sh\n' }, '.venv/bin/python -m pytest'],
    ['uv', { 'pytest.ini': '[pytest]\n', 'uv.lock': '' }, 'uv run python -m pytest'],
    ['Poetry', { 'pytest.ini': '[pytest]\n', 'poetry.lock': '' }, 'poetry run python -m pytest'],
    ['pipenv', { 'pytest.ini': '[pytest]\n', Pipfile: '' }, 'pipenv run python -m pytest'],
    ['a go.work', { 'go.work': 'go 1.21\nuse (\n\t./a\n\t../outside\n)\n', 'a/go.mod': 'module a\n' }, 'go test -v ./a/... ../outside/...'],
  ];
  for (const [what, files, command] of detectedAsk)
    it(`asks before running the command detected for ${what}: ${command}`, async () => {
      const ws = await workspace('detected-ask', files);
      assert.equal((await detectTestCommand(ws))?.command, command);
      const d = await decide(ws);
      assert.equal(d.type, 'ask', d.reason);
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
      'bun test',
      'deno test',
      'python3 -m unittest',
      'python3 -m unittest discover -s tests',
      'pnpm test',
      'yarn test',
    ])
      if ((await decide(ws, command)).type !== 'ask') ran.push(command);
    assert.deepEqual(ran, [], `these would run unasked: ${ran.join(', ')}`);
  });
});
