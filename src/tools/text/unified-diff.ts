// Unified diffs (`--- a/x`, `+++ b/x`, `@@ … @@`) built from line changes, so the model and the
// VS Code diff view see exactly what an edit or write changes.
import { diffLineArrays, type LineChange } from './line-diff.js';
import { arrayLines, NO_EOL, type LineSource } from './line-index.js';

interface DiffStats {
  added: number;
  removed: number;
}

export interface UnifiedDiff extends DiffStats {
  text: string;
}

/** Splits text into lines; a last line without a newline is marked so that adding one shows. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
}

export function unifiedDiff(path: string, before: string | undefined, after: string, context = 3): UnifiedDiff {
  const a = before === undefined ? [] : splitLines(before);
  const b = splitLines(after);
  return formatHunks(path, before === undefined, arrayLines(a), arrayLines(b), diffLineArrays(a, b), context);
}

export function formatHunks(
  path: string,
  created: boolean,
  a: LineSource,
  b: LineSource,
  changes: readonly LineChange[],
  context = 3,
): UnifiedDiff {
  const out: string[] = [created ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  let [added, removed] = [0, 0];
  for (const group of groupChanges(changes, context)) {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const oStart = Math.max(0, first.oldStart - context);
    const oEnd = a.linesUpTo(last.oldEnd + context);
    const nStart = first.newStart - (first.oldStart - oStart);
    const nEnd = last.newEnd + (oEnd - last.oldEnd);
    out.push(`@@ -${range(oStart, oEnd - oStart)} +${range(nStart, nEnd - nStart)} @@`);
    let i = oStart;
    for (const c of group) {
      for (; i < c.oldStart; i++) pushLine(out, ' ', a.at(i));
      for (let k = c.oldStart; k < c.oldEnd; k++) pushLine(out, '-', a.at(k));
      for (let k = c.newStart; k < c.newEnd; k++) pushLine(out, '+', b.at(k));
      removed += c.oldEnd - c.oldStart;
      added += c.newEnd - c.newStart;
      i = c.oldEnd;
    }
    for (; i < oEnd; i++) pushLine(out, ' ', a.at(i));
  }
  if (out.length === 2) return { text: '', added: 0, removed: 0 };
  return { text: `${out.join('\n')}\n`, added, removed };
}

function groupChanges(changes: readonly LineChange[], context: number): LineChange[][] {
  const groups: LineChange[][] = [];
  for (const c of changes) {
    const g = groups[groups.length - 1];
    if (g && c.oldStart - g[g.length - 1]!.oldEnd <= 2 * context) g.push(c);
    else groups.push([c]);
  }
  return groups;
}

function range(start: number, len: number): string {
  return `${len === 0 ? start : start + 1},${len}`;
}

function pushLine(out: string[], mark: string, line: string): void {
  const noEol = line.endsWith(NO_EOL);
  const text = (noEol ? line.slice(0, -NO_EOL.length) : line).replace(/\r$/, '');
  out.push(mark + text);
  if (noEol) out.push('\\ No newline at end of file');
}
