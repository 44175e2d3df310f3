// How many lines a change added and removed (the +/− of a Files changed summary), from the
// same line diff the edit tools use. Line endings do not count as a change of their own.
import { diffLineArrays } from './line-diff.js';

export interface LineCounts {
  added: number;
  removed: number;
}

export function lineCounts(before: string, after: string): LineCounts {
  const counts: LineCounts = { added: 0, removed: 0 };
  for (const c of diffLineArrays(linesOf(before), linesOf(after))) {
    counts.removed += c.oldEnd - c.oldStart;
    counts.added += c.newEnd - c.newStart;
  }
  return counts;
}

function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
