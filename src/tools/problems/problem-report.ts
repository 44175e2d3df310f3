// The lines an edit's observation gets about the problems it changed: each new problem as
// `file:line:col severity message`, at most MAX_LINES of them and MAX_CHARS in all (about 600
// tokens) with "+N more", then how many older problems stayed and how many the edit fixed.
import type { Diagnostic, ProblemSnapshot } from '../../kernel/index.js';
import { type ProblemDiff, firstLine } from './problem-diff.js';

export const MAX_PROBLEM_LINES = 20;
export const MAX_PROBLEM_CHARS = 2400;
const MAX_MESSAGE_CHARS = 200;

function problemLine(d: Diagnostic): string {
  const message = firstLine(d.message);
  const short = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message;
  return `${d.path}:${d.line}:${d.column} ${d.severity} ${short}${d.source ? ` [${d.source}]` : ''}`;
}

/** The report for one edit; empty when no checker answered and there is nothing to say. */
export function formatProblemReport(diff: ProblemDiff, after: ProblemSnapshot, changed: readonly string[]): string {
  const out = [...after.notes];
  if (after.checkers.length > 0) out.push(...checkedLines(diff, after.checkers, changed));
  return out.join('\n');
}

function checkedLines(diff: ProblemDiff, checkers: readonly string[], changed: readonly string[]): string[] {
  const by = checkers.join(', ');
  const tail = afterwards(diff);
  if (diff.introduced.length === 0) return [`Problems after this edit (${by}): none new.${tail ? ` ${tail}` : ''}`];
  const inChanged = diff.introduced.filter((d) => changed.includes(d.path)).length;
  const elsewhere = diff.introduced.length - inChanged;
  const where = elsewhere > 0 ? ` (${elsewhere} in other files that use the changed code)` : '';
  return [`Problems after this edit (${by}): ${diff.introduced.length} new${where}:`, ...capped(diff.introduced), ...(tail ? [tail] : [])];
}

function afterwards(diff: ProblemDiff): string {
  const parts: string[] = [];
  if (diff.fixed.length > 0) parts.push(`${diff.fixed.length} problem${diff.fixed.length === 1 ? '' : 's'} gone with this edit.`);
  if (diff.unchanged > 0) parts.push(`${diff.unchanged} older problem${diff.unchanged === 1 ? '' : 's'} unchanged.`);
  return parts.join(' ');
}

function capped(list: readonly Diagnostic[]): string[] {
  const lines: string[] = [];
  let chars = 0;
  for (const d of list) {
    const line = problemLine(d);
    if (lines.length === MAX_PROBLEM_LINES || chars + line.length + 1 > MAX_PROBLEM_CHARS) break;
    lines.push(line);
    chars += line.length + 1;
  }
  if (lines.length < list.length) lines.push(`+${list.length - lines.length} more`);
  return lines;
}
