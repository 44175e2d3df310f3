// Exact reports from the real outputs of node --test (TAP and spec), mocha, jest and vitest on
// the fixture project of capture.mjs: 13 tests; the failing variant fails a plain assertion
// (math > multiplies), a multi-line diff (config > fills defaults) and an error thrown in
// lib/config (config > reads a config file); the broken variant adds a test file with a syntax
// error on `const value = {;` (the ";" is column 20).
import assert from 'node:assert/strict';
import { load_error, parseFixture, test_failure } from './run-tests-fixtures.js';

const passing = (runner: string) => ({ runner, passed: 12, failed: 0, skipped: 1, failures: [] });

/** node's assert diff of the defaults test, as node prints it. */
const nodeDefaultsDiff = [
  '+ actual - expected',
  '',
  '  {',
  "    debug: 'no',",
  "+   host: 'localhost',",
  "-   host: '127.0.0.1',",
  "    name: 'keel',",
  '    port: 9000,',
  '+   retries: 3,',
  '-   retries: 5,',
  '    timeout: 30',
  '  }',
];
const nodeBroken = (file: string, line: number) =>
  load_error(file, `${file}:${line}:20`, "SyntaxError: Unexpected token ';'", ['const value = {;', '               ^']);

describe('run_tests reports: node --test (Node 20.20.2)', () => {
  for (const reporter of ['tap', 'spec'] as const) {
    const runner = reporter === 'tap' ? 'tap' : 'node-test';
    const assertion = reporter === 'tap' ? 'AssertionError' : 'AssertionError [ERR_ASSERTION]';
    it(`${reporter}: passing`, () => {
      assert.deepEqual(parseFixture(`node-test-20.20.2-${reporter}-passing.txt`), passing(runner));
    });

    it(`${reporter}: 3 failing, each at the failing line (in lib/ for the thrown error), the diff whole`, () => {
      assert.deepEqual(parseFixture(`node-test-20.20.2-${reporter}-failing.txt`), {
        runner,
        passed: 9,
        failed: 3,
        skipped: 1,
        failures: [
          test_failure('config > fills defaults', 'test/config.test.mjs:16:12', [
            `${assertion}: Expected values to be strictly deep-equal:`,
            ...nodeDefaultsDiff,
          ]),
          test_failure(
            'config > reads a config file',
            'lib/config.mjs:5:11',
            `${reporter === 'spec' ? 'Error: ' : ''}no "=" in config line: port 8080`,
          ),
          test_failure('math > multiplies', 'test/math.test.mjs:16:12', [
            `${assertion}: Expected values to be strictly equal:`,
            '',
            '6 !== 7',
          ]),
        ],
      });
    });

    it(`${reporter}: a test file with a syntax error is a load error with its line, column and source`, () => {
      assert.deepEqual(parseFixture(`node-test-20.20.2-${reporter}-broken.txt`), {
        runner,
        passed: 12,
        failed: 0,
        skipped: 1,
        failures: [nodeBroken('test/broken.test.mjs', 7)],
      });
    });
  }
});

describe('run_tests reports: mocha 11.8.0', () => {
  it('passing', () => {
    assert.deepEqual(parseFixture('mocha-11.8.0-passing.txt'), passing('mocha'));
  });

  it('3 failing, each at the failing line, the diffs whole', () => {
    assert.deepEqual(parseFixture('mocha-11.8.0-failing.txt'), {
      runner: 'mocha',
      passed: 9,
      failed: 3,
      skipped: 1,
      failures: [
        test_failure('config > fills defaults', 'test/config.test.cjs:15:12', [
          'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
          ...nodeDefaultsDiff,
          '      + expected - actual',
          '',
          '       {',
          '         "debug": "no"',
          '      -  "host": "localhost"',
          '      +  "host": "127.0.0.1"',
          '         "name": "keel"',
          '         "port": 9000',
          '      -  "retries": 3',
          '      +  "retries": 5',
          '         "timeout": 30',
          '       }',
        ]),
        test_failure('config > reads a config file', 'lib/config.cjs:5:11', 'Error: no "=" in config line: port 8080'),
        test_failure('math > multiplies', 'test/math.test.cjs:15:12', [
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

  it('a CommonJS test file with a syntax error aborts the run: a load error with line, column and source', () => {
    assert.deepEqual(parseFixture('mocha-11.8.0-broken.txt'), {
      runner: 'mocha',
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [nodeBroken('test/broken.test.cjs', 6)],
    });
  });

  it('an ES module with a syntax error: mocha names only the file; the error is marked for node --check to place', () => {
    assert.deepEqual(parseFixture('mocha-11.8.0-broken-esm.txt'), {
      runner: 'mocha',
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [
        {
          ...load_error('test/broken.test.mjs', 'test/broken.test.mjs', "SyntaxError: Unexpected token ';'"),
          unplaced: { type: 'v8_message', message: "Unexpected token ';'" },
        },
      ],
    });
  });
});

describe('run_tests reports: jest 29.7.0', () => {
  it('passing', () => {
    assert.deepEqual(parseFixture('jest-29.7.0-passing.txt'), passing('jest'));
  });

  it('3 failing, each at the failing line, the diff whole', () => {
    assert.deepEqual(parseFixture('jest-29.7.0-failing.txt'), {
      runner: 'jest',
      passed: 9,
      failed: 3,
      skipped: 1,
      failures: [
        test_failure('config > fills defaults', 'test/config.test.js:14:42', [
          'expect(received).toEqual(expected) // deep equality',
          '',
          '- Expected  - 2',
          '+ Received  + 2',
          '',
          '  Object {',
          '    "debug": "no",',
          '-   "host": "127.0.0.1",',
          '+   "host": "localhost",',
          '    "name": "keel",',
          '    "port": 9000,',
          '-   "retries": 5,',
          '+   "retries": 3,',
          '    "timeout": 30,',
          '  }',
        ]),
        test_failure('config > reads a config file', 'lib/config.js:5:11', 'no "=" in config line: port 8080'),
        test_failure('math > multiplies', 'test/math.test.js:14:23', [
          'expect(received).toBe(expected) // Object.is equality',
          '',
          'Expected: 7',
          'Received: 6',
        ]),
      ],
    });
  });

  it('"Test suite failed to run" is a load error with the file, the SyntaxError, its position and the code frame', () => {
    assert.deepEqual(parseFixture('jest-29.7.0-broken.txt'), {
      runner: 'jest',
      passed: 12,
      failed: 0,
      skipped: 1,
      failures: [
        load_error('test/broken.test.js', 'test/broken.test.js:5:20', 'SyntaxError: Unexpected token', [
          "  3 | describe('broken', () => {",
          "  4 |   it('never runs', () => {",
          '> 5 |     const value = {;',
          '    |                    ^',
          '  6 |     expect(value).toBe(1);',
          '  7 |   });',
          '  8 | });',
        ]),
      ],
    });
  });
});

describe('run_tests reports: vitest 3.2.7', () => {
  it('passing', () => {
    assert.deepEqual(parseFixture('vitest-3.2.7-passing.txt'), passing('vitest'));
  });

  it('3 failing, each at the failing line, the diff whole', () => {
    assert.deepEqual(parseFixture('vitest-3.2.7-failing.txt'), {
      runner: 'vitest',
      passed: 9,
      failed: 3,
      skipped: 1,
      failures: [
        test_failure('config > fills defaults', 'test/config.test.ts:15:42', [
          "AssertionError: expected { name: 'keel', …(5) } to deeply equal { name: 'keel', …(5) }",
          '',
          '- Expected',
          '+ Received',
          '',
          '  {',
          '    "debug": "no",',
          '-   "host": "127.0.0.1",',
          '+   "host": "localhost",',
          '    "name": "keel",',
          '    "port": 9000,',
          '-   "retries": 5,',
          '+   "retries": 3,',
          '    "timeout": 30,',
          '  }',
        ]),
        test_failure('config > reads a config file', 'lib/config.ts:5:11', 'Error: no "=" in config line: port 8080'),
        test_failure('math > multiplies', 'test/math.test.ts:15:23', [
          'AssertionError: expected 6 to be 7 // Object.is equality',
          '',
          '- Expected',
          '+ Received',
          '',
          '- 7',
          '+ 6',
        ]),
      ],
    });
  });

  it('a file under "Failed Suites" is a load error with the transform error, its position and the code frame', () => {
    assert.deepEqual(parseFixture('vitest-3.2.7-broken.txt'), {
      runner: 'vitest',
      passed: 12,
      failed: 0,
      skipped: 1,
      failures: [
        load_error(
          'test/broken.test.ts',
          'test/broken.test.ts:6:20',
          ['Error: Transform failed with 1 error:', 'test/broken.test.ts:6:19: ERROR: Expected identifier but found ";"'],
          [
            "4  |  describe('broken', () => {",
            "5  |    it('never runs', () => {",
            '6  |      const value = {;',
            '   |                     ^',
            '7  |      expect(value).toBe(1);',
            '8  |    });',
          ],
        ),
      ],
    });
  });

  it('a JavaScript file: vite names no real position (1:0), so the load error has the file and message, marked for node --check', () => {
    assert.deepEqual(parseFixture('vitest-3.2.7-broken-js.txt'), {
      runner: 'vitest',
      passed: 12,
      failed: 0,
      skipped: 1,
      failures: [
        {
          ...load_error(
            'test/broken.test.js',
            'test/broken.test.js',
            'Error: Failed to parse source for import analysis because the content contains invalid JS syntax. ' +
              'If you are using JSX, make sure to name the file with the .jsx or .tsx extension.',
          ),
          unplaced: { type: 'rejected_file', file: 'test/broken.test.js' },
        },
      ],
    });
  });
});
