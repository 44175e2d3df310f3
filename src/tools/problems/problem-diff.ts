// What an edit did to the project's problems: the problems after it that were not there before
// (new), those before it that are gone (fixed), and how many stayed. A problem is known by its
// file, severity and message, not its line: an edit above it moves it without changing it.
import type { Diagnostic } from '../../kernel/index.js';

export interface ProblemDiff {
  /** New problems, those in the changed files first. */
  introduced: Diagnostic[];
  fixed: Diagnostic[];
  /** Problems there before and after the edit. */
  unchanged: number;
}

/** Only errors and warnings are worth a model's turn; hints and infos are the editor's. */
function worthReporting(d: Diagnostic): boolean {
  return d.severity === 'error' || d.severity === 'warning';
}

export function diffProblems(before: readonly Diagnostic[], after: readonly Diagnostic[], changed: readonly string[]): ProblemDiff {
  const old = groupByIdentity(before.filter(worthReporting));
  const now = groupByIdentity(after.filter(worthReporting));
  const introduced: Diagnostic[] = [];
  const fixed: Diagnostic[] = [];
  let unchanged = 0;
  for (const [key, list] of now) {
    const was = old.get(key) ?? [];
    unchanged += Math.min(was.length, list.length);
    introduced.push(...surplus(list, was));
  }
  for (const [key, list] of old) fixed.push(...surplus(list, now.get(key) ?? []));
  return { introduced: inReadingOrder(introduced, changed), fixed: inReadingOrder(fixed, changed), unchanged };
}

function identity(d: Diagnostic): string {
  return `${d.path}\0${d.severity}\0${d.source ?? ''}\0${firstLine(d.message)}`;
}

export function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.trim();
}

function groupByIdentity(list: readonly Diagnostic[]): Map<string, Diagnostic[]> {
  const out = new Map<string, Diagnostic[]>();
  for (const d of list) {
    const key = identity(d);
    const group = out.get(key);
    if (group) group.push(d);
    else out.set(key, [d]);
  }
  return out;
}

/** The members of `list` beyond `other`'s count, preferring those at a place `other` has none at. */
function surplus(list: readonly Diagnostic[], other: readonly Diagnostic[]): Diagnostic[] {
  const extra = list.length - other.length;
  if (extra <= 0) return [];
  const places = new Set(other.map(place));
  const elsewhere = list.filter((d) => !places.has(place(d)));
  const rest = list.filter((d) => places.has(place(d)));
  return [...elsewhere, ...rest].slice(0, extra);
}

const place = (d: Diagnostic) => `${d.line}:${d.column}`;

/** Changed files first (their order), then the others by path; errors before warnings; by line. */
function inReadingOrder(list: Diagnostic[], changed: readonly string[]): Diagnostic[] {
  const rank = (d: Diagnostic) => {
    const i = changed.indexOf(d.path);
    return i === -1 ? changed.length : i;
  };
  return list.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.path.localeCompare(b.path) ||
      Number(a.severity !== 'error') - Number(b.severity !== 'error') ||
      a.line - b.line ||
      a.column - b.column,
  );
}
