// Today's runners (node:test, mocha, vitest, jest, go test) on the two-file project of
// capture-more.mjs and go-project.mjs, from their real output: the failing variant has two
// failures (an assertion in the test, an error from lib/config or the config package), and
// broken-lib a syntax error at line 3 of the config module every test file imports. Each row:
// kind, name, file:line:column, the message's first line, and the test files (Go: packages) a
// load error stopped. mocha and vite print no line for an ES module's syntax error: the
// syntax-location test places those.
import assert from 'node:assert/strict';
import { formatReport } from '../../../src/tools/run-tests/format-report.js';
import { type FailureRow, failureRows, fixtureOutput, parseFixture } from './run-tests-fixtures.js';

type Counts = { runner: string; passed?: number; failed: number; skipped: number };

const MULTIPLIES_NODE = 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:';
const LIB_ERROR = 'Error: no "=" in config line: port 8080';
const V8_SYNTAX = 'SyntaxError: missing ) after argument list';
const BOTH_TEST_FILES = ['test/math.test.js', 'test/config.test.js'];
const GO_SYNTAX = 'syntax error: unexpected { in parameter list; possibly missing comma or )';
const GO_STOPPED = ['example.com/fx2/app', 'example.com/fx2/mathx'];

const CASES: [string, Counts, FailureRow[]][] = [
  [
    'node-test-20.20.2-tap-failing-lib.txt',
    { runner: 'tap', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'reads a config file', 'lib/config.js:5:11', 'no "=" in config line: port 8080'],
      ['test_failure', 'multiplies', 'test/math.test.js:10:10', 'AssertionError: Expected values to be strictly equal:'],
    ],
  ],
  [
    'node-test-20.20.2-spec-failing-lib.txt',
    { runner: 'node-test', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'reads a config file', 'lib/config.js:5:11', LIB_ERROR],
      ['test_failure', 'multiplies', 'test/math.test.js:10:10', MULTIPLIES_NODE],
    ],
  ],
  [
    'node-test-20.20.2-tap-broken-lib.txt',
    { runner: 'tap', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'lib/config.js', 'lib/config.js:3:27', V8_SYNTAX, BOTH_TEST_FILES]],
  ],
  [
    'node-test-20.20.2-spec-broken-lib.txt',
    { runner: 'node-test', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'lib/config.js', 'lib/config.js:3:27', V8_SYNTAX, ['test/config.test.js', 'test/math.test.js']]],
  ],
  [
    'mocha-12.0.3-failing.txt',
    { runner: 'mocha', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'reads > reads a config file', 'lib/config.js:5:11', LIB_ERROR],
      ['test_failure', 'multiplies > multiplies', 'test/math.test.js:12:12', MULTIPLIES_NODE],
    ],
  ],
  // mocha stops at the first file that fails to load, and names it.
  [
    'mocha-12.0.3-broken-lib.txt',
    { runner: 'mocha', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'test/config.test.js', 'test/config.test.js', V8_SYNTAX]],
  ],
  [
    'vitest-4.1.12-failing.txt',
    { runner: 'vitest', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'reads > reads a config file', 'lib/config.js:5:11', LIB_ERROR],
      ['test_failure', 'multiplies > multiplies', 'test/math.test.js:12:23', 'AssertionError: expected 6 to be 7 // Object.is equality'],
    ],
  ],
  [
    'vitest-4.1.12-broken-lib.txt',
    { runner: 'vitest', passed: 0, failed: 0, skipped: 0 },
    [
      [
        'load_error',
        'lib/config.js',
        'lib/config.js',
        'Error: Failed to parse source for import analysis because the content contains invalid JS syntax. If you are using JSX, make sure to name the file with the .jsx or .tsx extension.',
        ['test/config.test.js', 'test/math.test.js'],
      ],
    ],
  ],
  [
    'jest-30.5.2-failing.txt',
    { runner: 'jest', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'multiplies > multiplies', 'test/math.test.js:11:23', 'expect(received).toBe(expected) // Object.is equality'],
      ['test_failure', 'reads > reads a config file', 'lib/config.js:5:11', 'no "=" in config line: port 8080'],
    ],
  ],
  [
    'jest-30.5.2-broken-lib.txt',
    { runner: 'jest', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'lib/config.js', 'lib/config.js:3:30', 'SyntaxError: Unexpected token, expected ","', BOTH_TEST_FILES]],
  ],
  [
    'go-test-1.19.8-verbose-failing-lib.txt',
    { runner: 'go-test', passed: 3, failed: 2, skipped: 0 },
    [
      ['test_failure', 'TestReadsConfig', 'app/app_test.go:18', 'no "=" in config line: port 8080'],
      ['test_failure', 'TestMultiplies', 'mathx/mathx_test.go:17', 'Mul(2, 3) = 6'],
    ],
  ],
  [
    'go-test-1.19.8-failing-lib.txt',
    { runner: 'go-test', passed: undefined, failed: 2, skipped: 0 },
    [
      ['test_failure', 'TestReadsConfig', 'app/app_test.go:18', 'no "=" in config line: port 8080'],
      ['test_failure', 'TestMultiplies', 'mathx/mathx_test.go:17', 'Mul(2, 3) = 6'],
    ],
  ],
  [
    'go-test-1.19.8-verbose-broken-lib.txt',
    { runner: 'go-test', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'config/config.go', 'config/config.go:3:52', GO_SYNTAX, GO_STOPPED]],
  ],
  [
    'go-test-1.19.8-broken-lib.txt',
    { runner: 'go-test', passed: 0, failed: 0, skipped: 0 },
    [['load_error', 'config/config.go', 'config/config.go:3:52', GO_SYNTAX, GO_STOPPED]],
  ],
  // A real module (hashicorp/golang-lru, two bugs put in): two packages each have a TestCache_EvictionSameKey, one with subtests.
  [
    'go-test-1.19.8-golang-lru-verbose-failing.txt',
    { runner: 'go-test', passed: 36, failed: 3, skipped: 0 },
    [
      ['test_failure', 'TestLRUResize', 'lru_test.go:278', '1 element should have been evicted: 0'],
      ['test_failure', 'TestLRU_GetOldest_RemoveOldest', 'simplelru/lru_test.go:97', 'missing'],
      ['test_failure', 'TestLRU_Resize', 'simplelru/lru_test.go:194', '1 element should have been evicted: 0'],
    ],
  ],
];

const reportOf = (file: string, command: string) =>
  formatReport(`$ ${command}\n[exit code 1]`, parseFixture(file)!, fixtureOutput(file), 7800);

describe('run_tests reports: two failures and a broken module, on the runners of today', () => {
  for (const [file, counts, rows] of CASES)
    it(file, () => {
      const r = parseFixture(file);
      assert.ok(r, `${file} was not recognised`);
      assert.deepEqual({ runner: r.runner, passed: r.passed, failed: r.failed, skipped: r.skipped }, counts);
      assert.deepEqual(failureRows(r), rows);
      assert.equal(r.failures.filter((f) => f.kind === 'test_failure').length, r.failed);
    });

  it('vitest: tests printed as consecutive FAIL headers over one error each get that error and its place (path-to-regexp)', () => {
    const r = parseFixture('vitest-3.2.7-path-to-regexp-redos-failing.txt')!;
    assert.deepEqual([r.passed, r.failed, r.failures.length], [90, 11, 11]);
    const places = r.failures.map((f) => `${f.file}:${f.line}:${f.column} ${f.message.split('\n')[0]}`);
    const vulnerable = "src/redos.spec.ts:15:27 AssertionError: expected 'vulnerable' to be 'safe' // Object.is equality";
    const timedOut = 'src/redos.spec.ts:13:3 Error: Test timed out in 10000ms.';
    assert.deepEqual(places, [...Array(4).fill(vulnerable), ...Array(7).fill(timedOut)]);
  });

  it('go test: a message that starts with a newline is kept whole, not "failed"', () => {
    for (const file of ['go-test-1.19.8-verbose-failing-lib.txt', 'go-test-1.19.8-failing-lib.txt']) {
      const multiplies = parseFixture(file)!.failures.find((f) => f.name === 'TestMultiplies')!;
      assert.equal(multiplies.message, 'Mul(2, 3) = 6\nwant 7', file);
    }
  });

  it('go test: a build failure is one load error at its first message, the follow-on errors in its text', () => {
    const [f] = parseFixture('go-test-1.19.8-broken-lib.txt')!.failures;
    assert.equal(f!.message, `${GO_SYNTAX}\nconfig/config.go:6:18: syntax error: unexpected ] after top level declaration`);
  });

  it('go test: after a build failure the report does not ask for -v (none ran; -v was used or not)', () => {
    for (const [file, command] of [
      ['go-test-1.19.8-verbose-broken-lib.txt', 'go test -v ./...'],
      ['go-test-1.19.8-broken-lib.txt', 'go test ./...'],
    ] as const) {
      const text = reportOf(file, command);
      assert.doesNotMatch(text, /-v\b.*lists|lists them with -v/, file);
      assert.match(text, /^0 passed, 0 failed, 1 load error/m, file);
      assert.match(
        text,
        /^1\. \[load error\] config\/config\.go:3:52 — stopped 2 test packages from loading \(example\.com\/fx2\/app, example\.com\/fx2\/mathx\)$/m,
      );
    }
    // Without -v, when tests ran, passing ones are still not listed: the hint stays true.
    assert.match(reportOf('go-test-1.19.8-failing-lib.txt', 'go test ./...'), /passing tests not listed \(go test lists them with -v\)/);
  });
});
