// Results that read right (issue 36 item 4), on real output captured by hand (the fixtures'
// README): chained runs add up with every run's counts and each run's first failure; a task
// runner's prefixes are stripped and each failure keeps its package; pytest's long-id headers and
// a syntax error imported by a conftest are placed where they are; Catch2, GoogleTest, CTest and
// a compiler's errors are read.
import assert from 'node:assert/strict';
import { formatReport, summaryLine } from '../../../src/tools/run-tests/format-report.js';
import { failureRows, fixtureOutput, parseFixture } from './run-tests-fixtures.js';

const counts = (file: string) => {
  const r = parseFixture(file)!;
  return { runner: r.runner, passed: r.passed, failed: r.failed, skipped: r.skipped };
};

describe('run_tests reports, round 2 (issue 36 item 4)', () => {
  it('a script chaining two node --test runs counts both: 15 passed, 1 failed, each run its own', () => {
    const r = parseFixture('node-test-20.20.2-chained-tap.txt')!;
    assert.deepEqual(counts('node-test-20.20.2-chained-tap.txt'), { runner: 'tap', passed: 15, failed: 1, skipped: 0 });
    assert.deepEqual(
      r.runs?.map((x) => [x.passed, x.failed]),
      [
        [6, 0],
        [9, 1],
      ],
    );
    assert.deepEqual(failureRows(r), [
      ['test_failure', 'b adds', 'test/b.test.mjs:4:29', 'AssertionError: Expected values to be strictly equal:'],
    ]);
    assert.match(summaryLine(r), /^15 passed, 1 failed; 2 runs: 6 passed, 0 failed \(tap\); 9 passed, 1 failed \(tap\)$/);
  });

  it('two mocha runs, and node --test then mocha: every run counted, the first failure of each shown', () => {
    assert.deepEqual(counts('mocha-12.0.3-chained.txt'), { runner: 'mocha', passed: 11, failed: 2, skipped: 0 });
    assert.deepEqual(
      failureRows(parseFixture('mocha-12.0.3-chained.txt')!).map((f) => [f[1], f[2]]),
      [
        ['c > c fails', 'test/c.spec.cjs:2:102'],
        ['d > d fails', 'test/d.spec.cjs:2:102'],
      ],
    );
    const mixed = parseFixture('node-test-mocha-chained.txt')!;
    assert.deepEqual([mixed.passed, mixed.failed], [13, 1]);
    assert.deepEqual(
      mixed.runs?.map((x) => x.runner),
      ['tap', 'mocha'],
    );
  });

  it("turbo's `name:test: ` prefixes are stripped: both packages' runs read, each failure names its package", () => {
    const r = parseFixture('turbo-2.5.4-node-test-failing.txt')!;
    assert.deepEqual([r.passed, r.failed], [5, 2]);
    assert.deepEqual(
      r.failures.map((f) => [f.package, f.name, `${f.file}:${f.line}`]),
      [
        ['api', 'api parses', 'packages/api/test/a.test.mjs:4'],
        ['web', 'web escapes', 'packages/web/test/w.test.mjs:4'],
      ],
    );
    const shown = formatReport('$ turbo run test', r, fixtureOutput('turbo-2.5.4-node-test-failing.txt'), 8000);
    assert.match(shown, /^1\. \[api\] api parses — packages\/api\/test\/a\.test\.mjs:4:33$/m);
    assert.match(shown, /api: 4 passed, 1 failed \(tap\); web: 1 passed, 1 failed \(tap\)/);
  });

  it("pnpm -r's `packages/web test: ` prefixes are stripped too", () => {
    const r = parseFixture('pnpm-9.15.0-recursive-failing.txt')!;
    assert.deepEqual([r.passed, r.failed], [1, 1]);
    assert.deepEqual(
      r.failures.map((f) => [f.package, f.name, f.file]),
      [['packages/web', 'web escapes', 'packages/web/test/w.test.mjs']],
    );
  });

  it('pytest: a title too long for the line (padded with a single `_`) keeps its line and message', () => {
    assert.deepEqual(failureRows(parseFixture('pytest-9.0.3-long-id.txt')!), [
      [
        'test_failure',
        'test_with_a_really_long_name_that_goes_on_and_on_for_quite_a_while_indeed[a very long parameter value that makes the id long a very long parameter value that makes the id long a very long parameter value that makes the id long ]',
        'test_long.py:5',
        "AssertionError: assert 'a very long ... the id long ' == 'x'",
      ],
      ['test_failure', 'test_short', 'test_long.py:8', 'assert 1 == 2'],
    ]);
  });

  it('pytest: a syntax error in a module a conftest imports is placed in that module, not at the import', () => {
    const r = parseFixture('pytest-9.0.3-conftest-syntax.txt')!;
    assert.deepEqual(r.failures, [
      {
        kind: 'load_error',
        name: 'conftest.py',
        file: 'pkg/mod.py',
        line: 2,
        context: 'return (1,\n       ^',
        message: "SyntaxError: '(' was never closed",
      },
    ]);
  });

  it('Catch2 tests run as a build step: counted (5 passed; 4 passed, 1 failed) and the failure at its assertion', () => {
    assert.deepEqual(counts('catch2-2.13.10-cmake-passing.txt'), { runner: 'catch2', passed: 5, failed: 0, skipped: 0 });
    assert.deepEqual(counts('catch2-2.13.10-cmake-failing.txt'), { runner: 'catch2', passed: 4, failed: 1, skipped: 0 });
    assert.deepEqual(parseFixture('catch2-2.13.10-cmake-failing.txt')!.failures, [
      {
        kind: 'test_failure',
        name: 'divisible by 400',
        file: 'leap_test.cpp',
        line: 6,
        message: '  REQUIRE( leap::is_leap_year(2000) )\nwith expansion:\n  false',
      },
    ]);
  });

  it("a build that does not compile: the compiler's first error at its file:line:column, with the source and caret", () => {
    const r = parseFixture('gcc-12-cmake-compile-error.txt')!;
    assert.deepEqual(failureRows(r), [
      ['load_error', 'compiler: leap.cpp', 'leap.cpp:3:39', '‘yeer’ was not declared in this scope; did you mean ‘year’?'],
    ]);
    assert.match(r.failures[0]!.context ?? '', /\^~~~/);
  });

  it("CTest's counts, and a failed GoogleTest case placed at its assertion from the output CTest shows", () => {
    const r = parseFixture('ctest-3.25-gtest-1.12-failing.txt')!;
    assert.deepEqual(counts('ctest-3.25-gtest-1.12-failing.txt'), { runner: 'ctest', passed: 3, failed: 1, skipped: 0 });
    assert.deepEqual(failureRows(r), [['test_failure', 'Calc.Divides', 'calc_test.cpp:5', 'Expected equality of these values:']]);
  });
});
