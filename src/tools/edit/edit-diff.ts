// The unified diff of an edit, computed only over the lines the edit touched: on a 10,000-line
// file this costs a fraction of a millisecond instead of a whole-file diff.
import { diffLineArrays, type LineChange } from '../text/line-diff.js';
import type { LineLookup, LineSource } from '../text/line-index.js';
import { formatHunks, splitLines, type UnifiedDiff } from '../text/unified-diff.js';

export interface Replacement {
  start: number;
  end: number;
  replacement: string;
}

interface Region {
  firstLine: number;
  lastLine: number;
  items: Replacement[];
}

/** `sorted` must be ordered by start and must not overlap. */
export function diffReplacements(path: string, idx: LineLookup, sorted: readonly Replacement[]): UnifiedDiff {
  const changes: LineChange[] = [];
  const newLines = new Map<number, string>();
  let delta = 0;
  for (const region of regions(idx, sorted)) {
    const from = idx.startOf(region.firstLine);
    const oldText = idx.text.slice(from, idx.startOf(region.lastLine + 1));
    const a = splitLines(oldText);
    const b = splitLines(applyAll(oldText, region.items, from));
    const newFirst = region.firstLine + delta;
    for (const [k, line] of b.entries()) newLines.set(newFirst + k, line);
    for (const c of diffLineArrays(a, b)) {
      changes.push({
        oldStart: c.oldStart + region.firstLine,
        oldEnd: c.oldEnd + region.firstLine,
        newStart: c.newStart + newFirst,
        newEnd: c.newEnd + newFirst,
      });
    }
    delta += b.length - a.length;
  }
  // Lengths on demand: counting the lines of a 100,000-line file would cost more than the rest of the edit.
  const after: LineSource = {
    get length() {
      return idx.length + delta;
    },
    at: (i) => newLines.get(i) ?? '',
    linesUpTo: (n) => idx.linesUpTo(n - delta) + delta,
  };
  return formatHunks(path, false, idx, after, changes);
}

/** Whole-line regions around the replacements; touching ones are merged. */
function regions(idx: LineLookup, sorted: readonly Replacement[]): Region[] {
  const out: Region[] = [];
  for (const r of sorted) {
    const firstLine = idx.lineOf(r.start);
    const lastLine = idx.lineOf(Math.max(r.start, r.end - 1));
    const prev = out[out.length - 1];
    if (prev && firstLine <= prev.lastLine + 1) {
      prev.lastLine = Math.max(prev.lastLine, lastLine);
      prev.items.push(r);
    } else out.push({ firstLine, lastLine, items: [r] });
  }
  for (const region of out) extendToLineEnd(idx, region);
  return mergeTouching(out);
}

/** A replacement that removes a newline joins the next line: take that line into the region. */
function extendToLineEnd(idx: LineLookup, region: Region): void {
  // linesUpTo, not length: counting every line of the file to learn that one more exists costs more than the edit.
  while (idx.linesUpTo(region.lastLine + 2) > region.lastLine + 1) {
    const from = idx.startOf(region.firstLine);
    const text = applyAll(idx.text.slice(from, idx.startOf(region.lastLine + 1)), region.items, from);
    if (text === '' || text.endsWith('\n')) return;
    region.lastLine++;
  }
}

function mergeTouching(regions: Region[]): Region[] {
  const out: Region[] = [];
  for (const r of regions) {
    const prev = out[out.length - 1];
    if (prev && r.firstLine <= prev.lastLine) {
      prev.lastLine = Math.max(prev.lastLine, r.lastLine);
      prev.items.push(...r.items);
    } else out.push(r);
  }
  return out;
}

function applyAll(text: string, items: readonly Replacement[], offset: number): string {
  let out = '';
  let at = 0;
  for (const r of items) {
    out += text.slice(at, r.start - offset) + r.replacement;
    at = r.end - offset;
  }
  return out + text.slice(at);
}
