// The edit tools' side of the ProblemSource port: the problems before the write (the last check
// is good enough), the write, the problems once they settle after it, and the report of what
// changed for the observation. A checker that throws is one line of the report, never the edit's failure.
import type { Diagnostic, ProblemSnapshot, ToolContext } from '../../kernel/index.js';
import { diffProblems } from './problem-diff.js';
import { formatProblemReport } from './problem-report.js';

/** What an edit tool's description adds: the model learns it will be told. */
export const PROBLEMS_NOTE = ' After the write, new problems the project checker reports (type errors, lint) are listed in the result.';

export interface AroundResult {
  /** The lines for the observation; empty when the host checks nothing. */
  report: string;
  introduced: Diagnostic[];
  fixed: number;
}

export async function problemsAround(ctx: ToolContext, files: readonly string[], write: () => Promise<void>): Promise<AroundResult> {
  const source = ctx.workspace.problems;
  if (!source) {
    await write();
    return { report: '', introduced: [], fixed: 0 };
  }
  const before = await safely(() => source.snapshot(files, { signal: ctx.signal, reuse: true }));
  await write();
  const after = await safely(() => source.snapshot(files, { signal: ctx.signal }));
  // Without a baseline every problem would look new: say the check failed instead.
  const usable = before.checkers.length > 0 ? after : { ...after, checkers: [], notes: [...before.notes, ...after.notes] };
  const diff = diffProblems(before.problems, usable.problems, files);
  return { report: formatProblemReport(diff, usable, files), introduced: diff.introduced, fixed: diff.fixed.length };
}

async function safely(check: () => Promise<ProblemSnapshot>): Promise<ProblemSnapshot> {
  try {
    return await check();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { problems: [], checkers: [], notes: [`Problems were not checked: ${message.split('\n', 1)[0]}`] };
  }
}

/** The observation's text: the tool's own lines fitted to what is left of its budget, then the report. */
export function withReport(report: string, budgetChars: number, fitted: (chars: number) => string): string {
  if (!report) return fitted(budgetChars);
  return `${fitted(Math.max(400, budgetChars - report.length - 2))}\n\n${report}`;
}

// The first lines a report can open with: its heading, or a note of problems-around.ts or of a
// host's source (src/node/problems/node-problem-source.ts words its notes to fit).
const REPORT_OPENING =
  /^(Problems (after this edit|were not checked|are not checked)|No checker for |\S+ did not finish within |\S+ failed \(exit )/;

/**
 * An observation without the problems report withReport ended it with: a replay compares edits
 * without it, since the problems are the host's (the editor's language services, or headless
 * checkers) and not the step's own.
 */
export function withoutProblemReport(content: string): string {
  const at = content.lastIndexOf('\n\n');
  return at !== -1 && REPORT_OPENING.test(content.slice(at + 2)) ? content.slice(0, at) : content;
}
