import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { detectTestCommand } from '../../../src/tools/run-tests/detect-command.js';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import type { TestReport } from '../../../src/tools/run-tests/test-report.js';
import { nodeSatisfies } from '../../../src/tools/run-tests/toolchain.js';
import { context, tempWorkspace, type TempWorkspace } from './helpers.js';

describe("run_tests uses the project's toolchain", function () {
  this.timeout(60_000);
  let t: TempWorkspace;
  afterEach(() => t?.cleanup());

  const detect = async (files: Record<string, string>) => {
    t = await tempWorkspace(files);
    return (await detectTestCommand(t.ws))?.command;
  };

  it('runs the test script with the package manager package.json or the lock file names', async () => {
    const script = { scripts: { test: 'vitest run' } };
    assert.equal(await detect({ 'package.json': JSON.stringify({ ...script, packageManager: 'pnpm@9.1.0' }) }), 'pnpm test');
    await t.cleanup();
    assert.equal(await detect({ 'package.json': JSON.stringify(script), 'yarn.lock': '' }), 'yarn test');
    await t.cleanup();
    assert.equal(await detect({ 'package.json': JSON.stringify({ ...script, packageManager: 'bun@1.1.0' }) }), 'bun run test');
  });

  it('tests every module of a Go workspace and every crate of a Cargo workspace', async () => {
    assert.equal(
      await detect({ 'go.work': 'go 1.21\n\nuse (\n\t./api\n\t./lib/\n)\n', 'api/go.mod': 'module x/api\n' }),
      'go test -v ./api/... ./lib/...',
    );
    await t.cleanup();
    assert.equal(await detect({ 'Cargo.toml': '[workspace]\nmembers = ["a", "b"]\n' }), 'cargo test --workspace');
  });

  it('uses uv, Poetry or pipenv when the project is managed by one', async () => {
    const tests = { 'tests/test_x.py': 'def test_x():\n    pass\n' };
    assert.equal(await detect({ ...tests, 'uv.lock': '' }), 'uv run --offline python -m pytest --rootdir=.');
    await t.cleanup();
    assert.equal(await detect({ ...tests, 'poetry.lock': '' }), 'poetry run python -m pytest --rootdir=.');
  });

  it('reads the Node a project asks for', () => {
    assert.equal(nodeSatisfies('v20.20.2', '18'), false);
    assert.equal(nodeSatisfies('v20.20.2', 'v20.11.1'), true);
    assert.equal(nodeSatisfies('v20.20.2', '>=18'), true);
    assert.equal(nodeSatisfies('v20.20.2', '^22.0.0'), false);
    assert.equal(nodeSatisfies('v20.20.2', 'lts/*'), undefined);
  });

  it('names the Node that runs the tests and says when .nvmrc asks for another', async () => {
    t = await tempWorkspace({ '.nvmrc': '16\n', 'test/a.test.mjs': "import { test } from 'node:test';\ntest('a', () => {});\n" });
    const r = await runTestsTool.execute({}, context(t.ws));
    assert.match(
      r.content.split('\n')[0]!,
      new RegExp(`^Toolchain: Node ${process.version.replace(/\./g, '\\.')} — the project asks for Node 16 \\(\\.nvmrc\\)`),
    );
  });

  it("runs pytest with the workspace's .venv, not the system python3, and names it first", async function () {
    t = await tempWorkspace({
      'pyproject.toml': '[tool.pytest.ini_options]\n',
      'tests/test_where.py': 'import sys\n\ndef test_runs_in_the_venv():\n    assert sys.prefix.endswith(".venv"), sys.prefix\n',
    });
    const venv = spawnSync('python3', ['-m', 'venv', '--system-site-packages', '--without-pip', path.join(t.dir, '.venv')]);
    const pytest = spawnSync(path.join(t.dir, '.venv/bin/python'), ['-m', 'pytest', '--version']);
    if (venv.status !== 0 || pytest.status !== 0) this.skip();
    const r = await runTestsTool.execute({}, context(t.ws));
    const report = (r.data as { report: TestReport }).report;
    assert.deepEqual([report.passed, report.failed], [1, 0], r.content);
    assert.match(
      r.content,
      /^Toolchain: Python \(\.venv\/bin\/python\) 3\.\d+\.\d+ — Python from the workspace's \.venv\n\$ \.venv\/bin\/python -m pytest\n/,
    );
  });
});
