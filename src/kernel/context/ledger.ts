// The task ledger, folded from observations: which files were read (lines, content hash, step),
// which were edited (diff stat), the last result of each test command, the commands run. It is
// built only from facts the tools report and hashes the calls saw, so it stays exact when the
// steps that produced it are folded away — and notices when a file changed outside Keel. It also
// holds the to-do list (todo_write's fact replaces it whole), so a fold never drops the plan.
import type { Observation } from '../contracts/tool.js';
import type { Ledger, LedgerRead } from '../contracts/state.js';

/** How many recent commands the ledger keeps. */
const LEDGER_COMMANDS = 12;

export function emptyLedger(): Ledger {
  return { step: 0, reads: {}, edits: {}, tests: {}, commands: [], todos: [] };
}

/** The ledger after an observation committed at `seq` during the current step. */
export function ledgerAfter(ledger: Ledger, o: Observation, seq: number): Ledger {
  const facts = o.facts;
  const versions = o.fileVersions;
  if (!facts && !versions) return ledger;
  let reads = ledger.reads;
  let { edits, tests, commands, todos } = ledger;
  const step = ledger.step;
  const told = new Set<string>();
  if (facts?.read) {
    const r = facts.read;
    reads = { ...reads, [r.path]: afterRead(reads[r.path], r, step, seq) };
    told.add(r.path);
  }
  if (facts?.edit) {
    const e = facts.edit;
    const before = edits[e.path];
    edits = {
      ...edits,
      [e.path]: {
        edits: (before?.edits ?? 0) + 1,
        added: (before?.added ?? 0) + e.added,
        removed: (before?.removed ?? 0) + e.removed,
        created: (before?.created ?? false) || !!e.created,
        step,
      },
    };
    const read = reads[e.path];
    if (read) reads = { ...reads, [e.path]: { ...read, current: e.hash } };
    told.add(e.path);
  }
  if (facts?.test) tests = { ...tests, [facts.test.command]: { ...pick(facts.test), step } };
  if (facts?.command) commands = [...commands, { ...facts.command, step }].slice(-LEDGER_COMMANDS);
  if (facts?.todos) todos = facts.todos;
  for (const [path, hash] of Object.entries(versions ?? {})) {
    const read = reads[path];
    // A call saw content neither a read nor an edit of Keel's left there: changed outside Keel.
    if (told.has(path) || !read || read.current === hash) continue;
    reads = { ...reads, [path]: { ...read, current: hash, changedOutsideAt: step } };
  }
  return { step, reads, edits, tests, commands, todos };
}

function pick(t: { passed: number; failed: number; ok: boolean }) {
  return { passed: t.passed, failed: t.failed, ok: t.ok };
}

function afterRead(
  prev: LedgerRead | undefined,
  r: { hash: string; from: number; to: number; total: number; cut?: boolean | undefined },
  step: number,
  seq: number,
): LedgerRead {
  const same = prev !== undefined && prev.hash === r.hash && prev.total === r.total;
  // A read that showed some line shortened saw none of the file whole: it adds no range.
  const seen: [number, number][] = r.cut ? [] : [[r.from, r.to]];
  const ranges = merge(same ? [...prev.ranges, ...seen] : seen);
  const since = same ? prev.since : seq;
  // Whole by itself; else whole already; else whole only once pages read since `since` add up.
  const whole =
    !r.cut && r.from <= 1 && r.to >= r.total
      ? { step, seq }
      : same && prev.whole
        ? prev.whole
        : covers(ranges, r.total)
          ? { step, seq: since }
          : undefined;
  return { hash: r.hash, total: r.total, ranges, step, since, current: r.hash, ...(whole ? { whole } : {}) };
}

function merge(ranges: [number, number][]): [number, number][] {
  const sorted = ranges.slice().sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function covers(ranges: [number, number][], total: number): boolean {
  return ranges.length === 1 && ranges[0]![0] <= 1 && ranges[0]![1] >= total;
}

/**
 * The last whole read of `path` if the file has not changed since as far as the ledger knows;
 * `inContext` says whether that read is still shown whole (not folded away).
 */
export function priorReadOf(ledger: Ledger, foldedThrough: number, path: string) {
  const read = ledger.reads[path];
  if (!read?.whole) return undefined;
  return { hash: read.hash, step: read.whole.step, inContext: read.whole.seq > foldedThrough };
}
