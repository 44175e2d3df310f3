// When the sandbox is the guarantee, the project's own test command does not ask (issue 36 item
// 1): package managers through corepack or their pinned version, a workspace virtualenv's python,
// uv/Poetry/pipenv run, task runners, make, CMake and CTest, Maven and Gradle offline, deno test —
// each runs unasked in the test-run sandbox, where everything it can reach is inside, and asks
// when no sandbox is available or it is off (what the workspace holds may have been written by an
// earlier run). What would leave the sandbox still asks, and the ask names the command line and
// how the user allows it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PolicyContext, PolicyDecision, SandboxMode, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { createPolicy } from '../../../src/tools/policy/create-policy.js';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';
import { context, proposedIntent as intent, toolNamed as tool } from './helpers.js';

const PROJECT: Record<string, string> = {
  'package.json': '{"scripts":{"test":"node --test"},"packageManager":"pnpm@9.1.0"}',
  'pnpm-lock.yaml': '',
  Makefile: 'test:\n\t@echo ok\n',
  'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(x)\n',
  'pom.xml': '<project/>\n',
  'build.gradle': '',
  gradlew: '#!/bin/sh\n',
  mvnw: '#!/bin/sh\n',
  'test_a.py': 'def test_a():\n    assert True\n',
  '.venv/bin/python': '#!/bin/sh\n',
  'node_modules/.bin/jest': '#!/bin/sh\n',
  'go.mod': 'module x\n',
  'Cargo.toml': '[package]\nname = "x"\n',
};

async function workspace(files: Record<string, string>, unavailable = false, root = scratchDir('guarantee')): Promise<Workspace> {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  const ws = await createNodeWorkspace(root, { sandbox: { rules: COMMAND_SANDBOX_RULES } });
  return unavailable ? { ...ws, sandbox: { status: () => ({ type: 'unavailable', reason: 'no bwrap in this test' }) } } : ws;
}

async function decide(ws: Workspace, command: string, mode?: SandboxMode, toolName = 'run_tests'): Promise<PolicyDecision> {
  const policy = createPolicy({ autoApprove: ['read', 'execute'], ...(mode ? { sandbox: mode } : {}) });
  const ctx: PolicyContext = { tool: tool(toolName), grants: [], workspace: ws };
  return policy.decide(intent(toolName, { command }), ctx);
}

const CONTAINED = [
  'pnpm test',
  'pnpm run test',
  'pnpm -r test',
  'pnpm --filter web test',
  'corepack pnpm test',
  'yarn test',
  'corepack yarn@4.1.0 test',
  'yarn workspaces foreach -A run test',
  'yarn workspaces run test',
  'bun run test',
  'bun test',
  '.venv/bin/python -m pytest',
  'node_modules/.bin/jest',
  './node_modules/.bin/jest --ci',
  'poetry run pytest',
  'poetry run python -m pytest -q',
  'pipenv run python -m pytest',
  'uv run --offline python -m pytest',
  'npx --no-install turbo run test',
  'npx --no-install turbo run test --filter=web',
  'npx --no-install nx run-many -t test',
  'npx --no-install lerna run test --stream',
  'make test',
  'make -j4 check',
  'cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure',
  'mvn -o test',
  'mvn -o -q test -Dtest=FooTest',
  './mvnw -o test',
  './gradlew --offline test',
  'gradle --offline test --tests FooTest',
  'python3 -m pytest --rootdir=.',
  'deno test',
];

describe('policy: the sandbox is the guarantee (issue 36 item 1)', function () {
  this.timeout(60_000);
  let ws: Workspace;
  let bare: Workspace;
  before(async function () {
    ws = await workspace(PROJECT);
    bare = await workspace(PROJECT, true);
    await sandboxOrSkip(this, ws.root);
  });

  it("runs the project's own test commands unasked in the test-run sandbox", async () => {
    const asked: string[] = [];
    for (const c of CONTAINED) {
      const d = await decide(ws, c);
      if (d.type !== 'allow' || d.sandbox !== 'test_run') asked.push(`${c}: ${d.type} ${d.reason}`);
    }
    assert.deepEqual(asked, []);
    // npm's workspaces: each package.json is protected, so this one runs unasked with the sandbox off too.
    assert.equal((await decide(ws, 'npm test --workspaces --if-present', 'off')).type, 'allow');
  });

  it('asks for the same commands when the sandbox is off or none is available, saying they run unasked only inside it', async () => {
    const ran: string[] = [];
    for (const c of CONTAINED) {
      for (const d of [await decide(ws, c, 'off'), await decide(bare, c)])
        if (d.type !== 'ask' || !/only inside the sandbox/.test(d.reason)) ran.push(`${c}: ${d.type} ${d.reason}`);
    }
    assert.deepEqual(ran, []);
  });

  it('still asks for what would leave the sandbox or run more than the tests', async () => {
    const cases: [string, PolicyDecision['type']][] = [
      ['pnpm install', 'ask'],
      ['uv run python -m pytest', 'ask'],
      ['mvn test', 'ask'],
      ['./gradlew test', 'ask'],
      ['npx jest', 'ask'],
      ['make install', 'ask'],
      ['make test CC=gcc', 'ask'],
      ['pnpm test -- --watch', 'ask'],
      ['npx --no-install turbo run build', 'ask'],
      ['corepack enable', 'ask'],
      ['poetry add requests', 'ask'],
      ['cmake -S . -B /tmp/elsewhere', 'deny'],
      ['../other/.venv/bin/python -m pytest', 'ask'],
    ];
    const wrong: string[] = [];
    for (const [c, want] of cases) {
      const d = await decide(ws, c);
      if (d.type !== want) wrong.push(`${c}: ${d.type} (${d.type === 'deny' || d.type === 'ask' ? d.reason : ''})`);
    }
    assert.deepEqual(wrong, []);
    const network = await decide(ws, 'uv run python -m pytest');
    assert.match(network.type === 'ask' ? network.reason : '', /uv run --offline/);
  });

  it('an ask names the command line and the --allow-command flag and setting that let it run unasked', async () => {
    const d = await decide(ws, 'npx jest --ci', undefined, 'run_command');
    assert.equal(d.type, 'ask');
    const reason = d.type === 'ask' ? d.reason : '';
    assert.match(reason, /The command line: npx jest --ci/);
    assert.match(reason, /keel run --allow-command "npx jest --ci"/);
    assert.match(reason, /keel\.commands\.allow/);
    const chained = await decide(ws, 'make build && make test', undefined, 'run_command');
    assert.match(chained.type === 'ask' ? chained.reason : '', /--allow-command "make build" --allow-command "make test"/);
  });

  it('a Makefile recipe run unasked reaches nothing outside the workspace: parents, home and network are out of its reach', async () => {
    const root = scratchDir('guarantee-make');
    const inner = path.join(root, 'project');
    fs.mkdirSync(inner);
    const home = path.join(root, 'home');
    fs.mkdirSync(home);
    const moved = await workspace(
      {
        Makefile: [
          'test:',
          '\t-touch ../escaped',
          `\t-touch ${home}/escaped`,
          '\t-(exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null && echo network > reached.txt',
          '\techo made > made.txt',
          '',
        ].join('\n'),
      },
      false,
      inner,
    );
    const d = await decide(moved, 'make test');
    assert.deepEqual([d.type, d.type === 'allow' && d.sandbox], ['allow', 'test_run']);
    await runTestsTool.execute({ command: 'make test' }, { ...context(moved), sandbox: 'test_run' });
    assert.equal(fs.readFileSync(path.join(inner, 'made.txt'), 'utf8'), 'made\n', 'the recipe ran');
    assert.deepEqual(
      ['escaped', 'home/escaped', 'project/reached.txt'].filter((p) => fs.existsSync(path.join(root, p))),
      [],
    );
  });
});
