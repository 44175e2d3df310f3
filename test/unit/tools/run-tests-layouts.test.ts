// Detection for every layout (issue 36 item 3): CMake, Gradle and Maven, make test, pytest with no
// configuration (rootdir the workspace), deno, Exercism-style single-folder exercises and
// monorepos whose root has no test script of its own (turbo, nx, lerna, pnpm, yarn and npm
// workspaces). Each detected command is one the policy runs unasked in the test-run sandbox.
import assert from 'node:assert/strict';
import type { PolicyContext } from '../../../src/kernel/index.js';
import { createPolicy } from '../../../src/tools/policy/create-policy.js';
import { detectTestCommand } from '../../../src/tools/run-tests/detect-command.js';
import { proposedIntent as intent, tempWorkspace, toolNamed as tool } from './helpers.js';

const NO_SCRIPT = JSON.stringify({ name: 'root', private: true });

const CASES: [string, Record<string, string>, string][] = [
  [
    'CMake (a C++ exercise: tests built and run as a build step, or registered with CTest)',
    { 'CMakeLists.txt': 'project(x)\n', 'x_test.cpp': '', 'x.cpp': '', 'x.h': '' },
    'cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure',
  ],
  [
    'Gradle through its wrapper',
    { 'build.gradle': '', gradlew: '#!/bin/sh\n', 'src/test/java/XTest.java': '' },
    './gradlew --offline test',
  ],
  ['Gradle (Kotlin DSL) without a wrapper', { 'build.gradle.kts': '' }, 'gradle --offline test'],
  ['Maven', { 'pom.xml': '<project/>\n' }, 'mvn -o test'],
  ['Maven through its wrapper', { 'pom.xml': '<project/>\n', mvnw: '#!/bin/sh\n' }, './mvnw -o test'],
  ['a Makefile test target (a C exercise)', { Makefile: 'test: tests.out\n\t@./tests.out\n', 'src/x.c': '' }, 'make test'],
  ['pytest with no configuration (a Python exercise)', { 'two_fer.py': '', 'two_fer_test.py': '' }, 'python3 -m pytest --rootdir=.'],
  ['pytest configured', { 'pytest.ini': '[pytest]\n', 'tests/test_a.py': '' }, 'python3 -m pytest'],
  ['deno', { 'deno.json': '{}\n', 'main_test.ts': '' }, 'deno test'],
  ['turbo', { 'package.json': NO_SCRIPT, 'turbo.json': '{}' }, 'npx --no-install turbo run test --continue'],
  ['nx', { 'package.json': NO_SCRIPT, 'nx.json': '{}' }, 'npx --no-install nx run-many -t test'],
  ['lerna', { 'package.json': NO_SCRIPT, 'lerna.json': '{}' }, 'npx --no-install lerna run test --no-bail'],
  [
    'pnpm workspaces',
    { 'package.json': NO_SCRIPT, 'pnpm-workspace.yaml': 'packages: [pkgs/*]\n', 'pnpm-lock.yaml': '' },
    'pnpm -r --no-bail test',
  ],
  [
    'yarn 1 workspaces',
    { 'package.json': JSON.stringify({ private: true, workspaces: ['pkgs/*'] }), 'yarn.lock': '' },
    'yarn workspaces run test',
  ],
  [
    'yarn 2+ workspaces',
    { 'package.json': JSON.stringify({ private: true, workspaces: ['pkgs/*'], packageManager: 'yarn@4.1.0' }) },
    'yarn workspaces foreach -A run test',
  ],
  ['npm workspaces', { 'package.json': JSON.stringify({ private: true, workspaces: ['pkgs/*'] }) }, 'npm test --workspaces --if-present'],
  [
    "a monorepo's own test script first",
    { 'package.json': JSON.stringify({ scripts: { test: 'turbo run test' } }), 'turbo.json': '{}', 'pnpm-lock.yaml': '' },
    'pnpm test',
  ],
];

describe('run_tests detects the test command of every layout (issue 36 item 3)', function () {
  this.timeout(60_000);
  for (const [what, files, command] of CASES)
    it(`${what}: ${command}, which runs unasked in the sandbox`, async () => {
      const t = await tempWorkspace(files);
      try {
        assert.equal((await detectTestCommand(t.ws))?.command, command);
        if (t.ws.sandbox?.status().type !== 'ready') return;
        const ctx: PolicyContext = { tool: tool('run_tests'), grants: [], workspace: t.ws };
        const d = await createPolicy({ autoApprove: ['read', 'execute'] }).decide(intent('run_tests', {}), ctx);
        assert.deepEqual([d.type, d.type === 'allow' && d.sandbox], ['allow', 'test_run'], d.reason);
      } finally {
        await t.cleanup();
      }
    });
});
