import assert from 'node:assert/strict';
import { cp, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { estimateTokens } from '../../../src/kernel/index.js';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import { detectTestCommand } from '../../../src/tools/run-tests/detect-command.js';
import { context, tempWorkspace, type TempWorkspace } from './helpers.js';
import type { TestReport } from '../../../src/tools/run-tests/test-report.js';

const repoModules = path.resolve(__dirname, '../../../node_modules');

describe('run_tests', function () {
  this.timeout(60_000);
  let t: TempWorkspace;
  afterEach(() => t?.cleanup());

  it('runs a real mocha project and reports its one failure with name and file:line', async () => {
    t = await tempWorkspace();
    await cp(path.join(__dirname, '../../fixtures/test-projects/mocha'), t.dir, { recursive: true });
    await symlink(repoModules, path.join(t.dir, 'node_modules'));
    const ctx = context(t.ws);
    const r = await runTestsTool.execute({}, ctx);
    assert.equal(r.summary, '2 passed, 1 failed, 1 skipped', r.content);
    const report = (r.data as { report: TestReport }).report;
    assert.equal(report.failures.length, 1);
    assert.equal(report.failures[0]!.name, 'math > multiplies');
    assert.equal(`${report.failures[0]!.file}:${report.failures[0]!.line}`, 'test/math.test.cjs:8');
    assert.match(r.content, /^\$ npm test\n/);
    assert.match(r.content, /1\. math > multiplies — test\/math\.test\.cjs:8/);
    assert.ok(ctx.progress.join('').includes('passing'), 'streams progress');
  });

  it('keeps a 500-test run with 3 failures under 2,000 tokens', async () => {
    t = await tempWorkspace({
      'package.json': JSON.stringify({ scripts: { test: 'mocha test/big.test.cjs' } }),
      'test/big.test.cjs': bigSuite(500, [17, 250, 499]),
    });
    await symlink(repoModules, path.join(t.dir, 'node_modules'));
    const r = await runTestsTool.execute({}, context(t.ws));
    assert.equal(r.summary, '497 passed, 3 failed', r.content);
    assert.ok(estimateTokens(r.content) < 2000, `${estimateTokens(r.content)} tokens`);
    assert.match(r.content, /case 250 — test\/big\.test\.cjs:\d+/);
  });

  it('detects test commands from the project files', async () => {
    const cases: [Record<string, string>, string | undefined][] = [
      [{ 'package.json': '{"scripts":{"test":"jest"}}' }, 'npm test'],
      [
        { 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"},"devDependencies":{"vitest":"1"}}' },
        'npx --no-install vitest run',
      ],
      [{ 'pyproject.toml': '[tool.pytest.ini_options]\n' }, 'python3 -m pytest'],
      [{ 'tests/test_x.py': 'def test_x(): pass\n' }, 'python3 -m pytest'],
      [{ 'go.mod': 'module x\n' }, 'go test -v ./...'],
      [{ 'Cargo.toml': '[package]\n' }, 'cargo test'],
      [{ 'test/a.test.mjs': '' }, 'node --test'],
      [{ 'README.md': '' }, undefined],
    ];
    for (const [files, expected] of cases) {
      const w = await tempWorkspace(files);
      assert.equal((await detectTestCommand(w.ws))?.command, expected, JSON.stringify(files));
      await w.cleanup();
    }
  });

  it('says so when no command can be detected', async () => {
    t = await tempWorkspace({ 'README.md': 'x' });
    const r = await runTestsTool.execute({}, context(t.ws));
    assert.equal(r.code, 'invalid_input');
  });
});

function bigSuite(n: number, failing: number[]): string {
  const lines = ["const assert = require('node:assert');", "describe('suite', () => {"];
  for (let i = 0; i < n; i++) {
    lines.push(
      failing.includes(i)
        ? `  it('case ${i}', () => { assert.strictEqual(${i}, ${i + 1}); });`
        : `  it('case ${i}', () => { assert.ok(true); });`,
    );
  }
  lines.push('});');
  return lines.join('\n') + '\n';
}
