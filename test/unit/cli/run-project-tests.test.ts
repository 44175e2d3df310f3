// "Fix the failing tests" without a person at the keyboard (issue 36): `keel run --approve
// read,execute` with a model that calls run_tests with no command, on an Exercism-style Python
// exercise (pytest, no configuration) and a C project whose tests are a Makefile target. Before,
// both were refused (pytest's config search, make: execute); now each runs in the test-run
// sandbox and its counts come back.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';
import { runScriptedTask } from '../../support/scripted-task.js';

function workspace(name: string, files: Record<string, string>): string {
  const ws = path.join(scratchDir(name), 'ws');
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), content);
  }
  return ws;
}

async function runTests(ws: string) {
  const provider = new ScriptedProvider([toolTurn('run_tests', {}), textTurn('done')]);
  return runScriptedTask(ws, ['--approve', 'read,execute', 'fix the failing tests'], provider);
}

describe('keel run --approve read,execute runs the project’s own tests (issue 36)', function () {
  this.timeout(120_000);

  it('a Python exercise with no pytest configuration: run, not refused, its counts read', async function () {
    const ws = workspace('cli-py-exercise', {
      'two_fer.py': 'def two_fer(name="you"):\n    return f"One for {name}, one for you."\n',
      'two_fer_test.py':
        'from two_fer import two_fer\n\n\ndef test_no_name():\n    assert two_fer() == "One for you, one for me."\n\n\ndef test_a_name():\n    assert two_fer("Alice") == "One for Alice, one for me."\n',
    });
    await sandboxOrSkip(this, ws);
    const { result } = await runTests(ws);
    assert.deepEqual(result.refusals, []);
    assert.deepEqual(result.lastTest, { command: 'python3 -m pytest --rootdir=.', passed: 0, failed: 2, ok: false });
  });

  it('a Makefile test target: run in the sandbox, not refused', async function () {
    const ws = workspace('cli-make-test', {
      Makefile: '.PHONY: test\ntest:\n\t@node --test\n',
      'test/a.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('adds', () => assert.equal(1 + 1, 2));\n",
    });
    await sandboxOrSkip(this, ws);
    const { result } = await runTests(ws);
    assert.deepEqual(result.refusals, []);
    assert.deepEqual(result.lastTest, { command: 'make test', passed: 1, failed: 0, ok: true });
  });
});
