// A syntax error the runner printed without a line is placed by node --check, never guessed.
// Each case: a runner's real output for the broken-lib project of capture-more.mjs (a syntax
// error at line 3 of lib/config.js, a module both test files import), parsed, then placed
// against that project written to a temporary workspace. ava, uvu, jasmine and mocha print
// only V8's message; vite names lib/config.js but says 1:0.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import type { Workspace } from '../../../src/kernel/index.js';
import { locateSyntaxErrors } from '../../../src/tools/run-tests/locate-syntax-error.js';
import { parseCheckOutput } from '../../../src/tools/run-tests/syntax-check.js';
import type { TestReport } from '../../../src/tools/run-tests/test-report.js';
import { fixtureIndex, parseFixture } from './run-tests-fixtures.js';
import { tempWorkspace, type TempWorkspace } from './helpers.js';

/** lib/config.js as capture-more.mjs writes it for broken-lib: line 3 lacks its ")". */
const BROKEN_CONFIG = `// Parses "key = value" lines into an object; numbers become numbers.
export function parseLine(line) {
  const at = line.indexOf('=';
  if (at < 0) {
    throw new Error(\`no "=" in config line: \${line}\`);
  }
  return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
}

export const PRECISION = 2;
`;
const IMPORTS = "import { add, mul } from '../lib/math.js';\nimport { parseConfig, PRECISION } from '../lib/config.js';\n";

function project(testDir: string, suffix: string, config = BROKEN_CONFIG): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'fx', private: true, type: 'module' }),
    'lib/config.js': config,
    'lib/math.js': 'export const add = (a, b) => a + b;\nexport const mul = (a, b) => a * b;\n',
    [`${testDir}/math${suffix}`]: `${IMPORTS}// tests\n`,
    [`${testDir}/config${suffix}`]: `${IMPORTS}// tests\n`,
  };
}

type Case = [fixture: string, testDir: string, suffix: string, name: string, stopped: string[] | undefined];
const CASES: Case[] = [
  ['ava-7.0.0-broken-lib.txt', 'test', '.test.js', 'lib/config.js', ['test/math.test.js', 'test/config.test.js']],
  ['uvu-0.5.6-broken-lib.txt', 'test', '.test.js', 'the test command', undefined],
  ['jasmine-7.0.0-broken-lib.txt', 'spec', '.spec.js', 'spec/config.spec.js', undefined],
  ['mocha-12.0.3-broken-lib.txt', 'test', '.test.js', 'test/config.test.js', undefined],
  ['vitest-4.1.12-broken-lib.txt', 'test', '.test.js', 'lib/config.js', ['test/config.test.js', 'test/math.test.js']],
];

async function placed(fixture: string, t: TempWorkspace): Promise<TestReport> {
  const report = parseFixture(fixture)!;
  return locateSyntaxErrors(report, { workspace: t.ws, command: fixtureIndex[fixture]!.command, signal: new AbortController().signal });
}

describe('run_tests places a syntax error the runner printed without a line', function () {
  this.timeout(60_000);
  let t: TempWorkspace | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  for (const [fixture, testDir, suffix, name, stopped] of CASES)
    it(`${fixture}: once, at lib/config.js:3:27, with the test files it stopped`, async () => {
      t = await tempWorkspace(project(testDir, suffix));
      const report = await placed(fixture, t);
      assert.equal(report.failures.length, 1, JSON.stringify(report.failures));
      const f = report.failures[0]!;
      assert.deepEqual(
        [f.kind, f.name, `${f.file}:${f.line}:${f.column}`, f.message.split('\n')[0], f.stopped],
        ['load_error', name, 'lib/config.js:3:27', 'SyntaxError: missing ) after argument list', stopped],
      );
      assert.equal(f.context, "const at = line.indexOf('=';\n                        ^^^");
      assert.equal(f.unplaced, undefined);
    });

  it('places nothing when no file reproduces the message (the project was fixed since)', async () => {
    t = await tempWorkspace(project('test', '.test.js', BROKEN_CONFIG.replace("('=';", "('=');")));
    const report = await placed('ava-7.0.0-broken-lib.txt', t);
    assert.equal(report.failures.length, 1);
    assert.equal(report.failures[0]!.line, undefined);
    assert.equal(report.failures[0]!.file, undefined);
  });

  it('does not take a different syntax error for the one the runner printed', async () => {
    t = await tempWorkspace({ ...project('test', '.test.js'), 'lib/config.js': 'export const x = {;\n' });
    const report = await placed('ava-7.0.0-broken-lib.txt', t);
    assert.equal(report.failures[0]!.line, undefined, JSON.stringify(report.failures[0]));
  });

  it('reads a file without a package "type" as Node would: CommonJS, else an ES module', async () => {
    const files = project('spec', '.spec.js');
    files['package.json'] = JSON.stringify({ name: 'fx', private: true });
    t = await tempWorkspace(files);
    const f = (await placed('jasmine-7.0.0-broken-lib.txt', t)).failures[0]!;
    assert.equal(`${f.file}:${f.line}:${f.column}`, 'lib/config.js:3:27');
  });

  it('checks in the read-only sandbox when the tests ran in one, and gets the same place', async () => {
    t = await tempWorkspace(project('test', '.test.js'));
    const profiles: (string | undefined)[] = [];
    const ws = t.ws;
    const spy: Workspace = {
      ...ws,
      runProcess: (line, o) => {
        profiles.push(o.sandbox);
        return ws.runProcess(line, o);
      },
    };
    const report = parseFixture('ava-7.0.0-broken-lib.txt')!;
    const signal = new AbortController().signal;
    const f = (await locateSyntaxErrors(report, { workspace: spy, command: 'npx ava', signal, sandbox: 'test_run' })).failures[0]!;
    assert.equal(`${f.file}:${f.line}:${f.column}`, 'lib/config.js:3:27');
    assert.ok(profiles.length > 0 && profiles.every((p) => p === 'read_only'), profiles.join(' '));
  });

  it('never parses a file outside the workspace a link points to (node would print its line)', async () => {
    const outside = await tempWorkspace({ 'config.js': BROKEN_CONFIG });
    try {
      const files = project('test', '.test.js');
      delete files['lib/config.js'];
      t = await tempWorkspace(files);
      symlinkSync(path.join(outside.dir, 'config.js'), path.join(t.dir, 'lib/config.js'));
      // vite names the file it rejected: the one file checked without following an import.
      const f = (await placed('vitest-4.1.12-broken-lib.txt', t)).failures[0]!;
      assert.notEqual(f.line, 3, JSON.stringify(f));
      assert.equal(f.context, undefined);
    } finally {
      await outside.cleanup();
    }
  });

  it("reads node --check's printout", () => {
    const printout =
      "[stdin]:3\n  const at = line.indexOf('=';\n                          ^^^\n\nSyntaxError: missing ) after argument list\n    at checkSyntax (node:internal/main/check_syntax:74:5)\n\nNode.js v20.20.2\n";
    assert.deepEqual(parseCheckOutput(printout), {
      line: 3,
      column: 27,
      message: 'missing ) after argument list',
      context: "const at = line.indexOf('=';\n                        ^^^",
    });
    assert.equal(parseCheckOutput('node: bad option: --input-type\n'), undefined);
  });
});
