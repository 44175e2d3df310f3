// The problems an edit's observation reports: which are new (by identity, not by line), which
// are gone, how many stayed, and the cap on how much of it the model reads.
import assert from 'node:assert/strict';
import type { Diagnostic, ProblemSnapshot } from '../../../../src/kernel/index.js';
import { diffProblems } from '../../../../src/tools/problems/problem-diff.js';
import { formatProblemReport, MAX_PROBLEM_CHARS, MAX_PROBLEM_LINES } from '../../../../src/tools/problems/problem-report.js';

function problem(path: string, line: number, message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic {
  return { path, line, column: 1, severity, message, source: 'TS2322' };
}

const checked = (problems: Diagnostic[]): ProblemSnapshot => ({ problems, checkers: ['tsc'], notes: [] });

describe('problems after an edit: the diff', () => {
  it('a problem that only moved down a line is not new', () => {
    const before = [problem('a.ts', 3, 'x is unused')];
    const after = [problem('a.ts', 5, 'x is unused')];
    assert.deepEqual(diffProblems(before, after, ['a.ts']), { introduced: [], fixed: [], unchanged: 1 });
  });

  it('new problems in the changed file come before those in files that import it; fixed ones are counted', () => {
    const before = [problem('a.ts', 1, 'old one'), problem('a.ts', 9, 'fixed now')];
    const after = [problem('b.ts', 2, 'caller broke'), problem('a.ts', 1, 'old one'), problem('a.ts', 4, 'new here')];
    const diff = diffProblems(before, after, ['a.ts']);
    assert.deepEqual(
      diff.introduced.map((d) => `${d.path}:${d.line}`),
      ['a.ts:4', 'b.ts:2'],
    );
    assert.deepEqual(
      diff.fixed.map((d) => d.message),
      ['fixed now'],
    );
    assert.equal(diff.unchanged, 1);
  });

  it('a second copy of the same message is new, and the one at a new place is named', () => {
    const before = [problem('a.ts', 2, 'Cannot find name y')];
    const after = [problem('a.ts', 2, 'Cannot find name y'), problem('a.ts', 7, 'Cannot find name y')];
    assert.deepEqual(
      diffProblems(before, after, ['a.ts']).introduced.map((d) => d.line),
      [7],
    );
  });

  it('hints and infos are left out', () => {
    const diff = diffProblems([], [problem('a.ts', 1, 'style', 'info'), problem('a.ts', 2, 'hint', 'hint')], ['a.ts']);
    assert.deepEqual(diff.introduced, []);
  });
});

describe('problems after an edit: the report', () => {
  it('names each new problem as file:line:col severity message, then what stayed and what went', () => {
    const before = [problem('a.ts', 1, 'old'), problem('a.ts', 8, 'gone')];
    const after = [
      problem('a.ts', 1, 'old'),
      { ...problem('a.ts', 3, "Type 'string' is not assignable to type 'number'.\n  more"), column: 7 },
    ];
    const report = formatProblemReport(diffProblems(before, after, ['a.ts']), checked(after), ['a.ts']);
    assert.equal(
      report,
      [
        'Problems after this edit (tsc): 1 new:',
        "a.ts:3:7 error Type 'string' is not assignable to type 'number'. [TS2322]",
        '1 problem gone with this edit. 1 older problem unchanged.',
      ].join('\n'),
    );
  });

  it('says none are new, and how many the edit fixed', () => {
    const before = [problem('a.ts', 1, 'one'), problem('a.ts', 2, 'two')];
    const report = formatProblemReport(diffProblems(before, [], ['a.ts']), checked([]), ['a.ts']);
    assert.equal(report, 'Problems after this edit (tsc): none new. 2 problems gone with this edit.');
  });

  it('counts the new problems in other files', () => {
    const after = [problem('a.ts', 1, 'here'), problem('b.ts', 1, 'there')];
    const report = formatProblemReport(diffProblems([], after, ['a.ts']), checked(after), ['a.ts']);
    assert.match(report, /^Problems after this edit \(tsc\): 2 new \(1 in other files that use the changed code\):/);
  });

  it('is capped in lines with "+N more"', () => {
    const after = Array.from({ length: 50 }, (_, i) => problem('a.ts', i + 1, `problem ${i}`));
    const lines = formatProblemReport(diffProblems([], after, ['a.ts']), checked(after), ['a.ts']).split('\n');
    assert.equal(lines.length, 1 + MAX_PROBLEM_LINES + 1);
    assert.equal(lines.at(-1), `+${50 - MAX_PROBLEM_LINES} more`);
  });

  it('is capped in characters: long messages are cut, and fewer lines fit', () => {
    const after = Array.from({ length: 20 }, (_, i) => problem('src/deep/module.ts', i + 1, `${i} ${'x'.repeat(500)}`));
    const report = formatProblemReport(diffProblems([], after, ['src/deep/module.ts']), checked(after), ['src/deep/module.ts']);
    assert.ok(report.length <= MAX_PROBLEM_CHARS + 200, `${report.length} chars`);
    assert.match(report, /\+\d+ more$/);
    assert.ok(report.split('\n').every((l) => l.length < 260));
  });

  it('without a checker says only the notes', () => {
    const snap: ProblemSnapshot = { problems: [], checkers: [], notes: ['No checker for .py files here.'] };
    assert.equal(formatProblemReport(diffProblems([], [], ['a.py']), snap, ['a.py']), 'No checker for .py files here.');
  });
});
