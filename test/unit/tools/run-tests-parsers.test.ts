import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseTestOutput } from '../../../src/tools/run-tests/parse-output.js';
import type { TestReport } from '../../../src/tools/run-tests/test-report.js';

const dir = path.join(__dirname, '../../fixtures/runner-output');
const parse = (file: string, root: string) => parseTestOutput(readFileSync(path.join(dir, file), 'utf8'), root);
const brief = (r: TestReport | undefined) =>
  r && {
    runner: r.runner,
    passed: r.passed,
    failed: r.failed,
    skipped: r.skipped,
    failures: r.failures.map((f) => `${f.name} @ ${f.file}:${f.line}`),
  };

describe('run_tests output parsers (real runner output)', () => {
  it('mocha spec', () => {
    const r = parse('mocha-spec.txt', '/tmp/runs/mocha');
    assert.deepEqual(brief(r), {
      runner: 'mocha',
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: ['math > multiplies @ test/math.test.cjs:8'],
    });
    assert.match(r!.failures[0]!.message, /6 !== 7/);
  });

  it('mocha spec with nested suites and a thrown error', () => {
    const r = parse('mocha-spec-2-failures.txt', '/tmp/runs/mocha2');
    assert.deepEqual(brief(r)?.failures, [
      'parser > throws on garbage @ test/a.test.cjs:7',
      'parser > numbers > parses floats @ test/a.test.cjs:5',
    ]);
    assert.equal(r!.failures[0]!.message, 'TypeError: unexpected token');
    assert.equal(r!.failed, 2);
  });

  it('jest', () => {
    const r = parse('jest.txt', '/tmp/runs/jest');
    assert.deepEqual(brief(r), {
      runner: 'jest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['math > multiplies @ test/math.test.js:6', 'throws an error @ test/math.test.js:12'],
    });
    assert.match(r!.failures[0]!.message, /Expected: 7\nReceived: 6/);
  });

  it('vitest', () => {
    const r = parse('vitest.txt', '/tmp/runs/vitest');
    assert.deepEqual(brief(r), {
      runner: 'vitest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['math > multiplies @ test/math.test.js:8', 'throws an error @ test/math.test.js:14'],
    });
    assert.match(r!.failures[1]!.message, /^Error: boom/);
  });

  it('node:test spec reporter', () => {
    const r = parse('node-test-spec.txt', '/tmp/runs/node-test');
    assert.deepEqual(brief(r), {
      runner: 'node-test',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: ['math > multiplies @ test/math.test.mjs:9', 'throws an error @ test/math.test.mjs:15'],
    });
    assert.match(r!.failures[0]!.message, /6 !== 7/);
  });

  it('node:test TAP reporter', () => {
    const r = parse('node-test-tap.txt', '/tmp/runs/node-test');
    assert.deepEqual(brief(r), {
      runner: 'tap',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: ['math > multiplies @ test/math.test.mjs:8', 'throws an error @ test/math.test.mjs:14'],
    });
    assert.match(r!.failures[0]!.message, /6 !== 7/);
    assert.equal(r!.failures[1]!.message, 'boom');
  });

  it('pytest', () => {
    const r = parse('pytest.txt', '/tmp/runs/pytest');
    assert.deepEqual(brief(r), {
      runner: 'pytest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['test_multiplies @ tests/test_math.py:9', 'TestErrors::test_throws @ tests/test_math.py:19'],
    });
    assert.equal(r!.failures[1]!.message, 'ValueError: boom');
  });

  it('go test -v and plain go test', () => {
    const v = parse('go-test-v.txt', '');
    assert.deepEqual(brief(v), {
      runner: 'go-test',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['TestMultiplies @ math_test.go:13', 'TestSub/inner_fails @ math_test.go:23'],
    });
    assert.equal(v!.failures[0]!.message, '2*3 = 6, want 7');
    assert.deepEqual(brief(parse('go-test.txt', ''))?.failures, [
      'TestMultiplies @ math_test.go:13',
      'TestSub/inner_fails @ math_test.go:23',
    ]);
  });

  it('cargo test', () => {
    const r = parse('cargo-test.txt', '/tmp/runs/cargo');
    assert.deepEqual(brief(r), {
      runner: 'cargo-test',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['tests::multiplies @ src/lib.rs:10', 'tests::panics @ src/lib.rs:19'],
    });
    assert.match(r!.failures[0]!.message, /left: 6\nright: 7/);
  });

  it('returns undefined for output of no known runner', () => {
    assert.equal(parseTestOutput('hello\nworld\n'), undefined);
  });
});
