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
    assert.match(r.content, /^Toolchain: Node \(npm\) v\d+\.\d+\.\d+\n\$ npm test\n/);
    assert.match(r.content, /1\. math > multiplies — test\/math\.test\.cjs:8/);
    assert.ok(ctx.progress.join('').includes('passing'), 'streams progress');
  });

  it('reports a test file that mocha cannot load as a load error with its line and column', async () => {
    t = await tempWorkspace({
      'package.json': JSON.stringify({ scripts: { test: 'mocha' } }),
      'test/ok.test.cjs': "it('works', () => {});\n",
      'test/broken.test.cjs': "it('never runs', () => {\n  const x = (;\n});\n",
    });
    await symlink(repoModules, path.join(t.dir, 'node_modules'));
    const r = await runTestsTool.execute({}, context(t.ws));
    assert.equal(r.summary, '0 passed, 0 failed, 1 load error — no tests ran', r.content);
    const report = (r.data as { report: TestReport }).report;
    assert.deepEqual(
      report.failures.map((f) => [f.kind, f.file, f.line, f.column, f.message]),
      [['load_error', 'test/broken.test.cjs', 2, 14, "SyntaxError: Unexpected token ';'"]],
    );
    assert.match(r.content, /1\. \[load error\] test\/broken\.test\.cjs:2:14\n {3}SyntaxError/);
  });

  it("reports node --test's syntax error in a test file (TAP, its default away from a terminal)", async () => {
    t = await tempWorkspace({
      'test/ok.test.mjs': "import { test } from 'node:test';\ntest('works', () => {});\n",
      'test/broken.test.mjs': "import { test } from 'node:test';\ntest('x', () => {\n  const x = 1 +;\n});\n",
    });
    const r = await runTestsTool.execute({ command: 'node --test' }, context(t.ws));
    const report = (r.data as { report: TestReport }).report;
    assert.equal(r.summary, '1 passed, 0 failed, 1 load error', r.content);
    assert.deepEqual(
      report.failures.map((f) => [f.kind, f.file, f.line, f.message]),
      [['load_error', 'test/broken.test.mjs', 3, "SyntaxError: Unexpected token ';'"]],
    );
  });

  it("maps go test's file names to package folders with go.mod's module path", async () => {
    const out = [
      '--- FAIL: TestParse (0.00s)',
      '    parse_test.go:12: got 1',
      '        want 2',
      'FAIL',
      'FAIL\texample.org/app/internal/parse\t0.002s',
      'ok  \texample.org/app\t0.001s',
    ].join('\n');
    t = await tempWorkspace({ 'go.mod': 'module example.org/app\n\ngo 1.21\n', 'go-output.txt': `${out}\n` });
    const r = await runTestsTool.execute({ command: 'cat go-output.txt' }, context(t.ws));
    const report = (r.data as { report: TestReport }).report;
    assert.deepEqual(report.failures, [
      { kind: 'test_failure', name: 'TestParse', file: 'internal/parse/parse_test.go', line: 12, message: 'got 1\nwant 2' },
    ]);
    assert.equal(r.summary, '1 failed, passing tests not listed (go test lists them with -v); packages: 1 ok, 1 failed');
  });

  it('says so when the command failed but the output shows no failure', async () => {
    t = await tempWorkspace({});
    const r = await runTestsTool.execute({ command: "printf '\\n  3 passing (5ms)\\n\\n'; exit 2" }, context(t.ws));
    assert.equal(r.summary, '3 passed, 0 failed');
    assert.match(r.content, /\[exit code 2 in [\d.]+s\]\nThe command failed but no failure was recognised in its output/);
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
      [{ 'tests/test_x.py': 'def test_x(): pass\n' }, 'python3 -m pytest --rootdir=.'],
      [{ 'tests/unit/test_x.py': 'def test_x(): pass\n' }, 'python3 -m pytest --rootdir=.'],
      [{ 'tests/unit/models/x_test.py': '' }, 'python3 -m pytest --rootdir=.'],
      [{ 'src/app/tests/test_x.py': '' }, 'python3 -m pytest --rootdir=.'],
      [{ 'test_app.py': '', 'app.py': '' }, 'python3 -m pytest --rootdir=.'],
      [{ 'src/app.py': '', 'tests/fixtures/data.json': '' }, undefined],
      [{ Makefile: '.PHONY: test\nCC = cc\n\ntest: build\n\t./run-tests.sh\n' }, 'make test'],
      [{ makefile: 'all check test:\n\t./t\n' }, 'make test'],
      [{ Makefile: 'test := unit\nall:\n\techo $(test)\n' }, undefined],
      [{ Makefile: 'testing:\n\t./t\n' }, undefined],
      [{ 'go.mod': 'module x\n', Makefile: 'test:\n\tgo test ./...\n' }, 'go test -v ./...'],
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
  return `${lines.join('\n')}\n`;
}
