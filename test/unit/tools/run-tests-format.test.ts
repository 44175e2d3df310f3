// What the model reads of a run: within the 2,000-token budget for every captured output,
// messages whole when they fit (a multi-line diff keeps all its lines), cut by characters with
// a note when they do not, a short message never starved by a long one, load errors first.
import assert from 'node:assert/strict';
import { estimateTokens } from '../../../src/kernel/index.js';
import { cut, fairShares, formatReport, summaryLine } from '../../../src/tools/run-tests/format-report.js';
import type { TestReport } from '../../../src/tools/run-tests/test-report.js';
import { fixtureIndex, fixtureOutput, load_error, parseFixture, test_failure } from './run-tests-fixtures.js';

const BUDGET_TOKENS = 2000;
const REPORT_CHARS = BUDGET_TOKENS * 4 - 200;
const render = (file: string) => {
  const meta = fixtureIndex[file]!;
  return formatReport(`$ ${meta.command}\n[exit code 1]`, parseFixture(file)!, fixtureOutput(file), REPORT_CHARS);
};

describe('run_tests report text', () => {
  it('every captured output gives a report within the budget that names each failure and load error with its location', () => {
    for (const file of Object.keys(fixtureIndex)) {
      const text = render(file);
      assert.ok(estimateTokens(text) <= BUDGET_TOKENS, `${file}: ${estimateTokens(text)} tokens`);
      for (const f of parseFixture(file)!.failures) {
        const at = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : '';
        assert.ok(text.includes(at) && text.includes(f.message.split('\n')[0]!), `${file}: ${f.name} ${at}`);
      }
    }
  });

  it('keeps a multi-line diff whole (every line, in order) when it fits', () => {
    const text = render('jest-29.7.0-failing.txt');
    const diff = parseFixture('jest-29.7.0-failing.txt')!.failures[0]!.message;
    assert.ok(diff.split('\n').length > 8, 'the diff is longer than the old 8-line cap');
    const indented = diff
      .split('\n')
      .map((l) => (l ? `   ${l}` : l))
      .join('\n');
    assert.ok(text.includes(`1. config > fills defaults — test/config.test.js:14:42\n${indented}\n2. `), text);
  });

  it('shows a load error first, with its position and the code frame', () => {
    const text = render('cargo-1.95.0-broken.txt');
    assert.match(text, /0 passed, 0 failed, 1 load error — no tests ran \(cargo-test\)/);
    assert.match(
      text,
      /Load errors:\n1\. \[load error\] fx \(lib test\) — src\/mathx\.rs:34:29\n {3}error\[E0308\]: mismatched types\n {6}\|\n {3}34 \| {9}let expected/,
    );
  });

  it('cuts long messages by characters, says how much, and leaves short ones whole', () => {
    const long = (c: string) => Array.from({ length: 400 }, (_, i) => `${c} line ${i} of a very long assertion diff`).join('\n');
    const report: TestReport = {
      runner: 'mocha',
      passed: 10,
      failed: 3,
      skipped: 0,
      failures: [
        test_failure('first', 'test/a.test.js:1:1', long('a')),
        test_failure('short one', 'test/a.test.js:2:1', 'expected 1 to equal 2'),
        test_failure('third', 'test/a.test.js:3:1', long('c')),
      ],
    };
    const text = formatReport('$ npx mocha\n[exit code 1]', report, 'x\n'.repeat(5000), REPORT_CHARS);
    assert.ok(text.length <= REPORT_CHARS, `${text.length} chars`);
    assert.match(text, /2\. short one — test\/a\.test\.js:2:1\n {3}expected 1 to equal 2\n3\. /);
    const notes = [...text.matchAll(/\[… (\d+) more characters not shown\]/g)].map((m) => Number(m[1]));
    assert.equal(notes.length, 2, text);
    const shown = text.slice(text.indexOf('1. first'), text.indexOf('2. short one'));
    const shownChars = shown.slice(shown.indexOf('\n') + 1, shown.lastIndexOf('\n   […')).length;
    const full = long('a')
      .split('\n')
      .map((l) => `   ${l}`)
      .join('\n');
    assert.equal(shownChars + notes[0]!, full.length, 'the note counts exactly what was cut');
    assert.ok(full.startsWith(shown.slice(shown.indexOf('\n') + 1, shown.lastIndexOf('\n   […'))), 'the kept part is the message start');
  });

  it('summarises counts, load errors and runners that do not list passing tests', () => {
    const base = { runner: 'go-test' as const, failed: 3, skipped: 0, failures: [] };
    assert.equal(
      summaryLine({ ...base, packages: { ok: 1, failed: 2 } }),
      '3 failed, passing tests not listed (go test lists them with -v); packages: 1 ok, 2 failed',
    );
    const broken = load_error('tests/test_x.py', 'tests/test_x.py:4', 'SyntaxError: invalid syntax');
    assert.equal(
      summaryLine({ runner: 'pytest', passed: 0, failed: 0, skipped: 0, failures: [broken] }),
      '0 passed, 0 failed, 1 load error — no tests ran',
    );
    assert.equal(
      summaryLine({ runner: 'jest', passed: 12, failed: 0, skipped: 1, failures: [broken, broken] }),
      '12 passed, 0 failed, 1 skipped, 2 load errors',
    );
  });

  it('shares a budget: small needs met in full, the rest split evenly', () => {
    assert.deepEqual(fairShares([100, 5000, 30, 5000], 2000), [100, 935, 30, 935]);
    assert.deepEqual(fairShares([10, 20], 1000), [10, 20]);
    assert.deepEqual(fairShares([10, 20], -5), [0, 0]);
  });

  it('cuts at a line end near the limit, otherwise mid-line', () => {
    assert.equal(cut('abc', 10), 'abc');
    const text = `${'x'.repeat(50)}\n${'y'.repeat(50)}`;
    assert.equal(cut(text, 90), `${'x'.repeat(50)}\n   [… 51 more characters not shown]`);
    const hard = cut('z'.repeat(200), 60);
    assert.equal(hard, `${'z'.repeat(23)}\n   [… 177 more characters not shown]`);
    assert.equal(hard.length, 60);
  });
});
