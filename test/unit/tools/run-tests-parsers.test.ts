// Exact reports from earlier, smaller captures (test/fixtures/test-projects; other runner
// versions: jest 30, vitest 4, mocha 12), and the location rules on hand-made stacks.
import assert from 'node:assert/strict';
import { firstWorkspaceFrame, frameIn, lastWorkspaceFrame } from '../../../src/tools/run-tests/locate.js';
import { parseTestOutput } from '../../../src/tools/run-tests/parse-output.js';
import { parseFixture, test_failure } from './run-tests-fixtures.js';

describe('run_tests reports: other runner versions (small projects)', () => {
  it('mocha 12', () => {
    assert.deepEqual(parseFixture('mocha-12-mini-failing.txt'), {
      runner: 'mocha',
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: [
        test_failure('math > multiplies', 'test/math.test.cjs:8:12', [
          'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
          '',
          '6 !== 7',
          '',
          '      + expected - actual',
          '',
          '      -6',
          '      +7',
        ]),
      ],
    });
  });

  it('mocha 12, nested suites and a thrown TypeError', () => {
    assert.deepEqual(parseFixture('mocha-12-nested-failing.txt'), {
      runner: 'mocha',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: [
        test_failure('parser > throws on garbage', 'test/a.test.cjs:7:41', 'TypeError: unexpected token'),
        test_failure('parser > numbers > parses floats', 'test/a.test.cjs:5:40', [
          'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
          '',
          '1.5 !== 1.25',
          '',
          '      + expected - actual',
          '',
          '      -1.5',
          '      +1.25',
        ]),
      ],
    });
  });

  it('jest 30', () => {
    assert.deepEqual(parseFixture('jest-30-mini-failing.txt'), {
      runner: 'jest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: [
        test_failure('math > multiplies', 'test/math.test.js:6:19', [
          'expect(received).toBe(expected) // Object.is equality',
          '',
          'Expected: 7',
          'Received: 6',
        ]),
        test_failure('throws an error', 'test/math.test.js:12:9', 'boom'),
      ],
    });
  });

  it('vitest 4', () => {
    assert.deepEqual(parseFixture('vitest-4.1.12-mini-failing.txt'), {
      runner: 'vitest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: [
        test_failure('math > multiplies', 'test/math.test.js:8:19', [
          'AssertionError: expected 6 to be 7 // Object.is equality',
          '',
          '- Expected',
          '+ Received',
          '',
          '- 7',
          '+ 6',
        ]),
        test_failure('throws an error', 'test/math.test.js:14:9', 'Error: boom'),
      ],
    });
  });

  it('node --test, spec and TAP agree on the failing line', () => {
    const failures = (assertion: string, boom: string) => [
      test_failure('math > multiplies', 'test/math.test.mjs:9:12', [`${assertion}: Expected values to be strictly equal:`, '', '6 !== 7']),
      test_failure('throws an error', 'test/math.test.mjs:15:9', boom),
    ];
    assert.deepEqual(parseFixture('node-test-20.20-mini-spec-failing.txt'), {
      runner: 'node-test',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: failures('AssertionError [ERR_ASSERTION]', 'Error: boom'),
    });
    assert.deepEqual(parseFixture('node-test-20.20-mini-tap-failing.txt'), {
      runner: 'tap',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: failures('AssertionError', 'boom'),
    });
  });

  it('pytest, a test in a class', () => {
    assert.deepEqual(parseFixture('pytest-9.0.3-mini-failing.txt'), {
      runner: 'pytest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: [
        test_failure('test_multiplies', 'tests/test_math.py:9', 'assert (2 * 3) == 7'),
        test_failure('TestErrors::test_throws', 'tests/test_math.py:19', 'ValueError: boom'),
      ],
    });
  });

  it('go test with and without -v, a failing subtest, the module root package', () => {
    const failures = [
      test_failure('TestMultiplies', 'math_test.go:13', '2*3 = 6, want 7'),
      test_failure('TestSub/inner_fails', 'math_test.go:23', 'inner broke'),
    ];
    assert.deepEqual(parseFixture('go-test-1.19-mini-verbose-failing.txt'), {
      runner: 'go-test',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures,
    });
    assert.deepEqual(parseFixture('go-test-1.19-mini-failing.txt'), {
      runner: 'go-test',
      failed: 2,
      skipped: 0,
      failures,
      packages: { ok: 0, failed: 1 },
    });
  });

  it('cargo test with RUST_BACKTRACE set', () => {
    assert.deepEqual(parseFixture('cargo-1.95-mini-failing.txt'), {
      runner: 'cargo-test',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: [
        test_failure('tests::multiplies', 'src/lib.rs:10:9', ['assertion `left == right` failed', '  left: 6', ' right: 7']),
        test_failure('tests::panics', 'src/lib.rs:19:9', 'boom'),
      ],
    });
  });

  it('returns undefined for output of no known runner', () => {
    assert.equal(parseTestOutput('hello\nworld\n'), undefined);
  });
});

describe('run_tests locations', () => {
  const root = '/work/app';

  it('take file and line from the first frame in the workspace, skipping node internals, dependencies and other folders', () => {
    const stack = [
      '    at Object.<anonymous> (node:internal/modules/cjs/loader:1:2)',
      '    at Parser.parse (/work/app/node_modules/acorn/dist/acorn.js:3000:15)',
      '    at load (/usr/lib/node/lib/x.js:4:1)',
      '    at read (../shared/util.js:8:3)',
      '    at parseLine (file:///work/app/lib/config.mjs:5:11)',
      '    at TestContext.<anonymous> (file:///work/app/test/config.test.mjs:26:20)',
    ];
    assert.deepEqual(firstWorkspaceFrame(stack, root), { file: 'lib/config.mjs', line: 5, column: 11 });
  });

  it('read every runner frame shape', () => {
    assert.deepEqual(frameIn(' ❯ parseLine lib/config.ts:5:11', root), { file: 'lib/config.ts', line: 5, column: 11 });
    assert.deepEqual(frameIn('\t/work/app/config/config.go:14 +0xd9', root), { file: 'config/config.go', line: 14 });
    assert.deepEqual(frameIn('             at ./src/mathx.rs:34:9', root), { file: 'src/mathx.rs', line: 34, column: 9 });
    assert.deepEqual(frameIn('fxlib/config.py:6: ValueError', root), { file: 'fxlib/config.py', line: 6 });
  });

  it('take the innermost workspace frame of a Python traceback (printed innermost last), not a virtualenv', () => {
    const tb = [
      'tests/test_a.py:3: in test_a',
      'fxlib/config.py:14: in parse_config',
      '.venv/lib/python3.11/site-packages/yaml/x.py:9: in load',
    ];
    assert.deepEqual(lastWorkspaceFrame(tb, root), { file: 'fxlib/config.py', line: 14 });
  });
});
