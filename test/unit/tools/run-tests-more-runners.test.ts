// The runners issue 23 added (ava, node-tap, uvu, jasmine, bun, deno, Python's unittest), pytest
// ids of every shape, and the steps a test script runs first (tsc, eslint, xo), each parsed from
// its real output (capture-more.mjs): the failing variant has two failures — an assertion in the
// test and an error thrown in lib/ — and broken-lib a syntax error in lib/config at line 3 that
// stops every test file. Each row: kind, name, file:line:column, the message's first line, and
// the test files a load error stopped.
import assert from 'node:assert/strict';
import { formatReport } from '../../../src/tools/run-tests/format-report.js';
import { type FailureRow as Row, failureRows, fixtureOutput, parseFixture } from './run-tests-fixtures.js';
type Counts = { runner: string; passed?: number; failed: number; skipped: number };

const CASES: [string, Counts, Row[]][] = [
  [
    'ava-7.0.0-broken-lib.txt',
    { runner: 'ava', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'test/math.test.js', '', 'SyntaxError: missing ) after argument list', ['test/math.test.js', 'test/config.test.js']]],
  ],
  [
    'ava-7.0.0-failing.txt',
    { runner: 'ava', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'config > reads a config file', 'lib/config.js:5:11', 'Error thrown in test:'],
      ['test_failure', 'math > multiplies', 'test/math.test.js:9:5', 'Difference (- actual, + expected):'],
    ],
  ],
  [
    'bun-1.4.5-broken-lib.txt',
    { runner: 'bun', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'lib/config.js', 'lib/config.js:3:30', 'Expected ")" but found ";"', ['test/config.test.js', 'test/math.test.js']]],
  ],
  [
    'bun-1.4.5-failing.txt',
    { runner: 'bun', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'test/config.test.js > reads a config file', 'lib/config.js:5:53', 'no "=" in config line: port 8080'],
      ['test_failure', 'test/math.test.js > multiplies', 'test/math.test.js:9:21', 'expect(received).toBe(expected)'],
    ],
  ],
  [
    'deno-2.9.6-broken-lib.txt',
    { runner: 'deno', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'lib/config.js', 'lib/config.js:3:30', "SyntaxError: Expected ',', got ';'"]],
  ],
  [
    'deno-2.9.6-failing.txt',
    { runner: 'deno', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'test/config.test.js > reads a config file', 'lib/config.js:5:11', 'Error: no "=" in config line: port 8080'],
      ['test_failure', 'test/math.test.js > multiplies', 'test/math.test.js:9:10', 'AssertionError: Expected values to be strictly equal:'],
    ],
  ],
  [
    'eslint-9.39.5-failing.txt',
    { runner: 'eslint', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'eslint: lib/config.js', 'lib/config.js:2:9', "'unused' is assigned a value but never used (no-unused-vars)"]],
  ],
  [
    'jasmine-7.0.0-broken-lib.txt',
    { runner: 'jasmine', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'spec/config.spec.js', 'spec/config.spec.js', 'SyntaxError: missing ) after argument list']],
  ],
  [
    'jasmine-7.0.0-failing.txt',
    { runner: 'jasmine', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'multiplies multiplies', 'spec/math.spec.js:11:23', 'Expected 6 to be 7.'],
      ['test_failure', 'reads reads a config file', 'lib/config.js:5:11', 'Error: no "=" in config line: port 8080'],
    ],
  ],
  [
    'pytest-9.0.3-broken-conftest.txt',
    { runner: 'pytest', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'tests/conftest.py', 'tests/conftest.py:1', "ModuleNotFoundError: No module named 'fxlib.missing_helper'"]],
  ],
  [
    'pytest-9.0.3-ids-failing.txt',
    { runner: 'pytest', passed: 7, failed: 6, skipped: 0 },
    [
      [
        'test_failure',
        'test_slug_ids[\\xfcn\\xefcode \\xdf]',
        'tests/test_slug.py:17',
        "AssertionError: assert 'ünïcode-straße' == 'ünïcode-strasse'",
      ],
      [
        'test_failure',
        'test_slug_ids[[brackets]]',
        'tests/test_slug.py:17',
        "AssertionError: assert '[brackets]-and-(parens)' == 'brackets-and-parens'",
      ],
      ['test_failure', 'test_slug_ids[x::y]', 'tests/test_slug.py:17', "AssertionError: assert 'x::y' == 'x-y'"],
      [
        'test_failure',
        'test_slug_auto[\\xdcn\\xefcode Stra\\xdfe-\\xfcn\\xefcode-strasse]',
        'tests/test_slug.py:22',
        "AssertionError: assert 'ünïcode-straße' == 'ünïcode-strasse'",
      ],
      [
        'test_failure',
        'test_slug_auto[[brackets] and (parens)-brackets-and-parens]',
        'tests/test_slug.py:22',
        "AssertionError: assert '[brackets]-and-(parens)' == 'brackets-and-parens'",
      ],
      ['test_failure', 'test_slug_auto[x::y-x-y]', 'tests/test_slug.py:22', "AssertionError: assert 'x::y' == 'x-y'"],
    ],
  ],
  [
    'pytest-9.0.3-ra-broken-conftest.txt',
    { runner: 'pytest', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'tests/conftest.py', 'tests/conftest.py:1', "ModuleNotFoundError: No module named 'fxlib.missing_helper'"]],
  ],
  [
    'pytest-9.0.3-ra-ids-failing.txt',
    { runner: 'pytest', passed: 7, failed: 6, skipped: 0 },
    [
      [
        'test_failure',
        'test_slug_ids[\\xfcn\\xefcode \\xdf]',
        'tests/test_slug.py:17',
        "AssertionError: assert 'ünïcode-straße' == 'ünïcode-strasse'",
      ],
      [
        'test_failure',
        'test_slug_ids[[brackets]]',
        'tests/test_slug.py:17',
        "AssertionError: assert '[brackets]-and-(parens)' == 'brackets-and-parens'",
      ],
      ['test_failure', 'test_slug_ids[x::y]', 'tests/test_slug.py:17', "AssertionError: assert 'x::y' == 'x-y'"],
      [
        'test_failure',
        'test_slug_auto[\\xdcn\\xefcode Stra\\xdfe-\\xfcn\\xefcode-strasse]',
        'tests/test_slug.py:22',
        "AssertionError: assert 'ünïcode-straße' == 'ünïcode-strasse'",
      ],
      [
        'test_failure',
        'test_slug_auto[[brackets] and (parens)-brackets-and-parens]',
        'tests/test_slug.py:22',
        "AssertionError: assert '[brackets]-and-(parens)' == 'brackets-and-parens'",
      ],
      ['test_failure', 'test_slug_auto[x::y-x-y]', 'tests/test_slug.py:22', "AssertionError: assert 'x::y' == 'x-y'"],
    ],
  ],
  [
    'tap-21.8.0-broken-lib.txt',
    { runner: 'node-tap', passed: 0, failed: 0, skipped: 0 },
    [
      [
        'load_error',
        'lib/config.js',
        'lib/config.js:3:27',
        'SyntaxError: missing ) after argument list',
        ['test/math.test.js', 'test/config.test.js'],
      ],
    ],
  ],
  [
    'tap-21.8.0-failing.txt',
    { runner: 'node-tap', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'test/config.test.js > reads a config file', 'lib/config.js:5:11', 'no "=" in config line: port 8080'],
      ['test_failure', 'test/math.test.js > multiplies', 'test/math.test.js:9:5', 'should be equal'],
    ],
  ],
  [
    'tsc-7.0.2-failing.txt',
    { runner: 'tsc', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'tsc: src/config.ts', 'src/config.ts:3:9', "TS2322: Type 'number' is not assignable to type 'string'."]],
  ],
  [
    'unittest-python-3.11.7-broken-lib.txt',
    { runner: 'unittest', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'fxlib/config.py', 'fxlib/config.py:3', "SyntaxError: expected ':'", ['tests.test_config', 'tests.test_math']]],
  ],
  [
    'unittest-python-3.11.7-failing.txt',
    { runner: 'unittest', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'ConfigTest > test_reads_a_config_file', 'fxlib/config.py:4', 'ValueError: no "=" in config line: port 8080'],
      ['test_failure', 'MathTest > test_multiplies', 'tests/test_math.py:12', 'AssertionError: 6 != 7'],
    ],
  ],
  [
    'uvu-0.5.6-broken-lib.txt',
    { runner: 'js-error', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'the test command', '', 'SyntaxError: missing ) after argument list']],
  ],
  [
    'uvu-0.5.6-failing.txt',
    { runner: 'uvu', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'config.test.js > reads a config file', 'lib/config.js:5:11', 'no "=" in config line: port 8080'],
      ['test_failure', 'math.test.js > multiplies', 'test/math.test.js:10:10', 'Expected values to be strictly equal:  (is)'],
    ],
  ],
  // Real projects with a ')' removed: a parsing error has no rule id.
  [
    'xo-1.2.3-camelcase-parse-error.txt',
    { runner: 'xo', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'xo: index.js', 'index.js:159:14', 'Parsing error: Unexpected token ;']],
  ],
  [
    'eslint-9.39.2-webidl-conversions-parse-error.txt',
    { runner: 'eslint', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'eslint: lib/index.js', 'lib/index.js:175:23', 'Parsing error: Unexpected token ;']],
  ],
  [
    'xo-2.0.2-failing.txt',
    { runner: 'xo', passed: 0, failed: 0, skipped: 0 },
    [
      [
        'load_error',
        'xo: index.js',
        'index.js:2:8',
        'unused is assigned a value but never used. Allowed unused vars must match /^_/u. (no-unused-vars)',
      ],
    ],
  ],
];

describe('run_tests reports: the runners added for issue 23', () => {
  for (const [file, counts, rows] of CASES) {
    it(file, () => {
      const r = parseFixture(file);
      assert.ok(r, `${file} was not recognised`);
      assert.deepEqual({ runner: r.runner, passed: r.passed, failed: r.failed, skipped: r.skipped }, counts);
      assert.deepEqual(failureRows(r), rows);
      // The count never disagrees with the list.
      assert.equal(r.failures.filter((f) => f.kind === 'test_failure').length, r.failed);
    });
  }

  it('names a load error once, at its source line, counting the test files it stopped', () => {
    const text = formatReport(
      '$ npx tap\n[exit code 1]',
      parseFixture('tap-21.8.0-broken-lib.txt')!,
      fixtureOutput('tap-21.8.0-broken-lib.txt'),
      7800,
    );
    assert.match(
      text,
      /^1\. \[load error\] lib\/config\.js:3:27 — stopped 2 test files from loading \(test\/math\.test\.js, test\/config\.test\.js\)$/m,
    );
    assert.equal(text.match(/\[load error\]/g)!.length, 1);
  });
});
