// The edit tools with a ProblemSource: the baseline is asked for before the write (reusing the
// last check) and the settled problems after it, the report lands in that call's result, and a
// checker that throws is one line there, never the edit's failure.
import assert from 'node:assert/strict';
import type { Diagnostic, ProblemSource, Workspace } from '../../../../src/kernel/index.js';
import { withoutProblemReport } from '../../../../src/tools/problems/problems-around.js';
import { writeFileTool } from '../../../../src/tools/write-file.js';
import { context, tempWorkspace } from '../helpers.js';

function scriptedSource(answers: (Diagnostic[] | Error)[], asked: boolean[]): ProblemSource {
  return {
    async snapshot(_files, o) {
      asked.push(o.reuse === true);
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return { problems: next ?? [], checkers: ['fake'], notes: [] };
    },
  };
}

const withProblems = (ws: Workspace, problems: ProblemSource): Workspace => Object.assign(Object.create(ws), { problems });

describe('edit tools: problems after the write', () => {
  it('write_file reports the problem its content brought in, asking for the baseline first', async () => {
    const t = await tempWorkspace();
    try {
      const asked: boolean[] = [];
      const error: Diagnostic = { path: 'a.ts', line: 1, column: 7, severity: 'error', message: 'Bad type.' };
      const ws = withProblems(t.ws, scriptedSource([[], [error]], asked));
      const result = await writeFileTool.execute({ path: 'a.ts', content: 'const x: number = "1";\n' }, context(ws));
      assert.equal(result.ok, true);
      assert.deepEqual(asked, [true, false]);
      assert.match(
        result.content,
        /^Created a\.ts \(1 lines\)\.[\s\S]*\n\nProblems after this edit \(fake\): 1 new:\na\.ts:1:7 error Bad type\.$/,
      );
    } finally {
      await t.cleanup();
    }
  });

  it('a checker that throws is a line of the result, and the file is written', async () => {
    const t = await tempWorkspace();
    try {
      const ws = withProblems(t.ws, scriptedSource([[], new Error('checker crashed\nat stack')], []));
      const result = await writeFileTool.execute({ path: 'b.ts', content: 'ok\n' }, context(ws));
      assert.equal(result.ok, true);
      assert.match(result.content, /\n\nProblems were not checked: checker crashed$/);
      assert.equal(new TextDecoder().decode(await t.ws.readFile('b.ts')), 'ok\n');
    } finally {
      await t.cleanup();
    }
  });

  it('without a baseline nothing is called new', async () => {
    const t = await tempWorkspace();
    try {
      const error: Diagnostic = { path: 'c.ts', line: 1, column: 1, severity: 'error', message: 'old' };
      const ws = withProblems(t.ws, scriptedSource([new Error('no baseline'), [error]], []));
      const result = await writeFileTool.execute({ path: 'c.ts', content: 'x\n' }, context(ws));
      assert.doesNotMatch(result.content, /new:/);
      assert.match(result.content, /Problems were not checked: no baseline/);
    } finally {
      await t.cleanup();
    }
  });

  it('a host without a ProblemSource reports nothing', async () => {
    const t = await tempWorkspace();
    try {
      const result = await writeFileTool.execute({ path: 'd.ts', content: 'x\n' }, context(t.ws));
      assert.doesNotMatch(result.content, /Problems/);
    } finally {
      await t.cleanup();
    }
  });
});

describe('edit tools: an observation without its problems report', () => {
  it('drops the report withReport added, whether a heading or a note, and nothing else', () => {
    const diff = 'Edited a.ts: +1 −1 lines.\n--- a/a.ts\n+++ b/a.ts';
    assert.equal(withoutProblemReport(`${diff}\n\nProblems after this edit (VS Code): none new.`), diff);
    assert.equal(withoutProblemReport(`${diff}\n\nNo checker for .ts files: no tsconfig.json at the workspace root.`), diff);
    assert.equal(withoutProblemReport(`${diff}\n\ntsc did not finish within 30 s: the problems of this edit are unknown.`), diff);
    const notReport = 'Wrote a.md.\n\nSome paragraph of the file.';
    assert.equal(withoutProblemReport(notReport), notReport);
  });
});
