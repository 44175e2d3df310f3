// The reports of several runs in one output (a chained script's, a task runner's packages) as one:
// counts added up, each run's counts kept, failures tagged with their package and ordered so the
// first failure of every run comes before the rest (the report details the first few; none of
// the runs goes unseen). A run that only printed a pre-step's or crash's output adds its errors.
import type { RunCounts, TestFailure, TestReport } from './test-report.js';

export interface PackageReport {
  report: TestReport;
  package?: string | undefined;
}

export function mergeReports(parts: readonly PackageReport[]): TestReport | undefined {
  if (parts.length <= 1) return parts[0] && withPackage(parts[0]);
  const tagged = parts.map(withPackage);
  // A run that printed nothing countable (a package a task runner stopped) adds nothing.
  const counted = tagged.filter((r) => r.passed || r.failed || r.skipped || r.failures.length);
  const first = counted[0] ?? tagged[0]!;
  const passed = counted.some((r) => r.passed !== undefined) ? counted.reduce((n, r) => n + (r.passed ?? 0), 0) : undefined;
  const packages = counted.some((r) => r.packages)
    ? counted.reduce((p, r) => ({ ok: p.ok + (r.packages?.ok ?? 0), failed: p.failed + (r.packages?.failed ?? 0) }), { ok: 0, failed: 0 })
    : undefined;
  return {
    runner: first.runner,
    ...(passed !== undefined ? { passed } : {}),
    failed: counted.reduce((n, r) => n + r.failed, 0),
    skipped: counted.reduce((n, r) => n + r.skipped, 0),
    failures: firstOfEachFirst(counted.map((r) => r.failures)),
    ...(packages ? { packages } : {}),
    runs: counted.map((r, i) => runCounts(r, parts[tagged.indexOf(counted[i]!)]?.package)),
  };
}

function withPackage(part: PackageReport): TestReport {
  if (part.package === undefined) return part.report;
  return { ...part.report, failures: part.report.failures.map((f) => ({ ...f, package: part.package })) };
}

function runCounts(r: TestReport, pkg: string | undefined): RunCounts {
  return {
    runner: r.runner,
    ...(pkg === undefined ? {} : { package: pkg }),
    ...(r.passed !== undefined ? { passed: r.passed } : {}),
    failed: r.failed,
    skipped: r.skipped,
  };
}

/** Load errors first (as every report orders them), then each run's first failure, then the rest in order. */
function firstOfEachFirst(lists: readonly TestFailure[][]): TestFailure[] {
  const all = lists.flat();
  const loads = all.filter((f) => f.kind === 'load_error');
  const tests = lists.map((l) => l.filter((f) => f.kind !== 'load_error'));
  const firsts = tests.flatMap((l) => l.slice(0, 1));
  return [...loads, ...firsts, ...tests.flatMap((l) => l.slice(1))];
}
