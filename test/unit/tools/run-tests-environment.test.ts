import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import type { TestReport } from '../../../src/tools/run-tests/test-report.js';
import { context, tempWorkspace, type TempWorkspace } from './helpers.js';

/** Variables a suite may read to decide what it expects (colour support, CI, the terminal). */
const READ = ['NO_COLOR', 'FORCE_COLOR', 'CI', 'TERM', 'COLORTERM'];

/** A real node:test suite: a colouring helper whose tests follow the environment, as colour libraries do. */
function suite(): Record<string, string> {
  const seen = Object.fromEntries(READ.map((k) => [k, process.env[k] ?? null]));
  return {
    'package.json': JSON.stringify({ name: 'env-suite', private: true, scripts: { test: 'node --test' } }),
    'lib/paint.mjs': [
      '// Red text unless the environment turns colour off (https://no-color.org).',
      "export const colourOn = () => !process.env.NO_COLOR && process.env.FORCE_COLOR !== '0' && process.env.TERM !== 'dumb';",
      'export const red = (s) => (colourOn() ? `\\x1b[31m${s}\\x1b[39m` : s);',
      '',
    ].join('\n'),
    'test/paint.test.mjs': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { red } from '../lib/paint.mjs';",
      `const launched = ${JSON.stringify(seen)};`,
      "test('paints red in this terminal', () => {",
      "  assert.equal(red('x'), '\\x1b[31mx\\x1b[39m');",
      '});',
      ...READ.map((k) => `test('sees ${k} as the user set it', () => assert.equal(process.env.${k} ?? null, launched.${k}));`),
      '',
    ].join('\n'),
  };
}

describe('run_tests and the environment', function () {
  this.timeout(60_000);
  let t: TempWorkspace;
  afterEach(() => t?.cleanup());

  for (const sandbox of ['none', 'test_run'] as const)
    it(`runs a suite that reads NO_COLOR, FORCE_COLOR, CI and TERM with the result it has when run directly (sandbox: ${sandbox})`, async function () {
      // The suite expects colour: run it where the user's environment allows it.
      if (process.env.NO_COLOR || process.env.FORCE_COLOR === '0' || process.env.TERM === 'dumb') this.skip();
      t = await tempWorkspace(suite());
      const direct = spawnSync('node', ['--test'], { cwd: t.dir, encoding: 'utf8' });
      assert.equal(direct.status, 0, `the suite passes when run directly:\n${direct.stdout}`);
      const r = await runTestsTool.execute({}, { ...context(t.ws), sandbox });
      const report = (r.data as { report: TestReport }).report;
      assert.deepEqual([report.passed, report.failed], [1 + READ.length, 0], r.content);
      assert.equal((r.data as { exitCode: number }).exitCode, 0);
    });
});

/** A node:test suite that prints its environment's names and checks the work tree is clean, as release scripts do. */
function gitSuite(): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'git-suite', private: true, scripts: { test: 'node --test' } }),
    'lib/value.mjs': 'export const value = 1;\n',
    'test/clean.test.mjs': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { spawnSync } from 'node:child_process';",
      "import { writeFileSync } from 'node:fs';",
      "test('the work tree matches the last commit', () => {",
      "  const r = spawnSync('git', ['diff', '--exit-code'], { encoding: 'utf8' });",
      '  assert.equal(r.status, 0, `git diff: ${r.stdout}${r.stderr}`);',
      '});',
      "test('writes the names of its environment', () => writeFileSync('env.txt', `ENV ${Object.keys(process.env).sort().join(',')} TMPDIR=${process.env.TMPDIR ?? ''}`));",
      '',
    ].join('\n'),
  };
}

describe('run_tests adds no variable a suite reads (issue 36 item 5)', function () {
  this.timeout(60_000);
  let t: TempWorkspace;
  afterEach(() => t?.cleanup());

  const git = (cwd: string, ...args: string[]) =>
    spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
  const names = (output: string) => {
    const m = /ENV (\S*) TMPDIR=(\S*)/.exec(output);
    return { names: new Set(m?.[1]?.split(',') ?? []), tmpdir: m?.[2] ?? '' };
  };

  for (const sandbox of ['none', 'test_run'] as const)
    it(`a suite checking \`git diff --exit-code\` after a file was touched passes as it does directly, and sees no variable added (sandbox: ${sandbox})`, async () => {
      t = await tempWorkspace(gitSuite());
      git(t.dir, 'init', '-q');
      git(t.dir, 'add', '.');
      git(t.dir, 'commit', '-qm', 'init');
      // Same content, new mtime: git sees the file stat-dirty until it refreshes its index.
      const touch = (s: number) =>
        fs.utimesSync(path.join(t.dir, 'lib/value.mjs'), new Date(Date.now() + s * 1000), new Date(Date.now() + s * 1000));
      touch(5);
      const direct = spawnSync('node', ['--test'], { cwd: t.dir, encoding: 'utf8' });
      assert.equal(direct.status, 0, `the suite passes when run directly:\n${direct.stdout}`);
      const directly = names(fs.readFileSync(path.join(t.dir, 'env.txt'), 'utf8'));
      // The direct run's git refreshed the index: stat-dirty again.
      touch(10);
      const r = await runTestsTool.execute({}, { ...context(t.ws), sandbox });
      const report = (r.data as { report: TestReport }).report;
      assert.deepEqual([report.passed, report.failed], [2, 0], r.content);
      const seen = names(fs.readFileSync(path.join(t.dir, 'env.txt'), 'utf8'));
      const added = [...seen.names].filter((n) => !directly.names.has(n) && n !== 'KEEL_COMMAND_ID');
      assert.deepEqual(added, [], `variables run_tests added: ${added.join(', ')}`);
      assert.equal(seen.tmpdir, process.env.TMPDIR ?? '', 'TMPDIR as the user has it');
    });
});
