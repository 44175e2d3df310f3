// Exact reports from the real outputs of pytest, go test and cargo test on capture.mjs's
// projects: 13 tests; the failing variant fails a plain assertion (multiplies), a multi-line
// message (fills defaults) and an error raised in the library's config file (reads a config
// file); the broken variant has a syntax error (pytest) or a type error (go, cargo).
import assert from 'node:assert/strict';
import { load_error, parseFixture, test_failure } from './run-tests-fixtures.js';

describe('run_tests reports: pytest 9.0.3', () => {
  it('passing', () => {
    assert.deepEqual(parseFixture('pytest-9.0.3-passing.txt'), { runner: 'pytest', passed: 12, failed: 0, skipped: 1, failures: [] });
  });

  it('3 failing, each at its innermost line in the workspace (fxlib/ for the raised error), the diff whole', () => {
    assert.deepEqual(parseFixture('pytest-9.0.3-failing.txt'), {
      runner: 'pytest',
      passed: 9,
      failed: 3,
      skipped: 1,
      failures: [
        test_failure('test_fills_defaults', 'tests/test_config.py:19', [
          "AssertionError: assert {'debug': 'no...t': 9000, ...} == {'debug': 'no...t': 9000, ...}",
          '',
          '  Omitting 4 identical items, use -vv to show',
          '  Differing items:',
          "  {'retries': 3} != {'retries': 5}",
          "  {'host': 'localhost'} != {'host': '127.0.0.1'}",
          '',
          '  Full diff:',
          '    {',
          "        'debug': 'no',",
          "  -     'host': '127.0.0.1',",
          "  +     'host': 'localhost',",
          "        'name': 'keel',",
          "        'port': 9000,",
          "  -     'retries': 5,",
          '  ?                ^',
          "  +     'retries': 3,",
          '  ?                ^',
          "        'timeout': 30,",
          '    }',
        ]),
        test_failure('test_reads_a_config_file', 'fxlib/config.py:6', 'ValueError: no "=" in config line: port 8080'),
        test_failure('test_multiplies', 'tests/test_math.py:17', ['assert 6 == 7', ' +  where 6 = mul(2, 3)']),
      ],
    });
  });

  it('a collection error is a load error with the file, line and SyntaxError (no column: Python strips the indentation)', () => {
    assert.deepEqual(parseFixture('pytest-9.0.3-broken.txt'), {
      runner: 'pytest',
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [
        load_error('tests/test_broken.py', 'tests/test_broken.py:4', 'SyntaxError: invalid syntax', [
          'def test_never_runs(:',
          '                    ^',
        ]),
      ],
    });
  });
});

describe('run_tests reports: go test (go 1.19.8)', () => {
  const failures = [
    test_failure('TestFillsDefaults', 'config/config_test.go:30', [
      'WithDefaults mismatch:',
      ' got: map[debug:no host:localhost name:keel port:9000 retries:3 timeout:30]',
      'want: map[debug:no host:127.0.0.1 name:keel port:9000 retries:5 timeout:30]',
    ]),
    test_failure('TestReadsAConfigFile', 'config/config.go:14', 'panic: no "=" in config line: "port 8080"'),
    test_failure('TestMultiplies', 'mathx/mathx_test.go:15', 'Mul(2, 3) = 6, want 7'),
  ];
  const buildError = load_error(
    'example.com/fx/mathx',
    'mathx/mathx_test.go:5:18',
    'cannot use "three" (untyped string constant) as int value in variable declaration',
  );

  it('-v: passing, counted per test (subtests as leaves)', () => {
    assert.deepEqual(parseFixture('go-test-1.19.8-verbose-passing.txt'), {
      runner: 'go-test',
      passed: 12,
      failed: 0,
      skipped: 1,
      failures: [],
    });
  });

  it('-v: 3 failing with package folders, the multi-line t.Errorf whole, the panic at its line in config.go', () => {
    assert.deepEqual(parseFixture('go-test-1.19.8-verbose-failing.txt'), { runner: 'go-test', passed: 9, failed: 3, skipped: 1, failures });
  });

  it('-v: a build failure is a load error with file, line, column and the compiler message', () => {
    assert.deepEqual(parseFixture('go-test-1.19.8-verbose-broken.txt'), {
      runner: 'go-test',
      passed: 5,
      failed: 0,
      skipped: 1,
      failures: [buildError],
    });
  });

  it('without -v: passing tests are not counted (go does not list them), packages are', () => {
    assert.deepEqual(parseFixture('go-test-1.19.8-passing.txt'), {
      runner: 'go-test',
      failed: 0,
      skipped: 0,
      failures: [],
      packages: { ok: 2, failed: 0 },
    });
  });

  it('without -v: the same 3 failures', () => {
    assert.deepEqual(parseFixture('go-test-1.19.8-failing.txt'), {
      runner: 'go-test',
      failed: 3,
      skipped: 0,
      failures,
      packages: { ok: 0, failed: 2 },
    });
  });

  it('without -v: the build failure', () => {
    assert.deepEqual(parseFixture('go-test-1.19.8-broken.txt'), {
      runner: 'go-test',
      failed: 0,
      skipped: 0,
      failures: [buildError],
      packages: { ok: 1, failed: 1 },
    });
  });
});

describe('run_tests reports: cargo test (cargo 1.95.0)', () => {
  const compileError = load_error('fx (lib test)', 'src/mathx.rs:34:29', 'error[E0308]: mismatched types', [
    '   |',
    '34 |         let expected: i64 = "six";',
    '   |                       ---   ^^^^^ expected `i64`, found `&str`',
    '   |                       |',
    '   |                       expected due to this',
  ]);
  const multiplies = test_failure('mathx::tests::multiplies', 'src/mathx.rs:34:9', [
    'assertion `left == right` failed',
    '  left: 6',
    ' right: 7',
  ]);

  for (const flavour of ['', 'fail-fast-']) {
    it(`${flavour}passing: summed over the test binaries`, () => {
      assert.deepEqual(parseFixture(`cargo-1.95.0-${flavour}passing.txt`), {
        runner: 'cargo-test',
        passed: 12,
        failed: 0,
        skipped: 1,
        failures: [],
      });
    });

    it(`${flavour}broken: the compiler error is a load error with file, line, column and the code frame`, () => {
      assert.deepEqual(parseFixture(`cargo-1.95.0-${flavour}broken.txt`), {
        runner: 'cargo-test',
        passed: 0,
        failed: 0,
        skipped: 0,
        failures: [compileError],
      });
    });
  }

  it('--no-fail-fast: 3 failing, at the panic locations (src/config.rs for the library panic), the message whole', () => {
    assert.deepEqual(parseFixture('cargo-1.95.0-failing.txt'), {
      runner: 'cargo-test',
      passed: 9,
      failed: 3,
      skipped: 1,
      failures: [
        multiplies,
        test_failure('reads_a_config_file', 'src/config.rs:9:17', 'no "=" in config line: "port 8080"'),
        test_failure('fills_defaults', 'tests/config.rs:22:5', [
          'with_defaults mismatch:',
          ' got: {"debug": "no", "host": "localhost", "name": "keel", "port": "9000", "retries": "3", "timeout": "30"}',
          'want: {"debug": "no", "host": "127.0.0.1", "name": "keel", "port": "9000", "retries": "5", "timeout": "30"}',
        ]),
      ],
    });
  });

  it('plain cargo test stops after the first failing binary: what ran is reported', () => {
    assert.deepEqual(parseFixture('cargo-1.95.0-fail-fast-failing.txt'), {
      runner: 'cargo-test',
      passed: 6,
      failed: 1,
      skipped: 0,
      failures: [multiplies],
    });
  });
});
