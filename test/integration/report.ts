// The integration suite's result file (written inside the extension host by
// runner-extension/extension.ts) and its mocha-style report, for both runners: run.ts
// (code-server) and run-desktop.ts (@vscode/test-electron).
import { existsSync, readFileSync } from 'node:fs';

export interface TestResult {
  title: string;
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export interface SuiteResult {
  fatal?: string;
  results: TestResult[];
}

export function readResult(path: string): SuiteResult | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as SuiteResult) : undefined;
}

/** Prints the results; the exit code: 1 on a failure, a fatal error or no test at all. */
export function report({ results, fatal }: SuiteResult, elapsedMs: number, where: string): number {
  console.log(`\n  integration tests (inside the ${where} extension host)\n`);
  for (const r of results) {
    const mark = r.state === 'passed' ? '✔' : r.state === 'pending' ? '-' : '✖';
    console.log(`    ${mark} ${r.fullTitle}${r.state === 'passed' ? ` (${r.durationMs}ms)` : ''}`);
  }
  const failed = results.filter((r) => r.state === 'failed');
  const passed = results.filter((r) => r.state === 'passed').length;
  const pending = results.filter((r) => r.state === 'pending').length;
  console.log(`\n  ${passed} passing, ${failed.length} failing, ${pending} pending (${Math.round(elapsedMs / 1000)}s in all)`);
  for (const [i, r] of failed.entries()) console.log(`\n  ${i + 1}) ${r.fullTitle}\n     ${r.error?.replace(/\n/g, '\n     ')}`);
  if (fatal) console.log(`\n  runner failed before or while running the tests:\n  ${fatal}`);
  return failed.length > 0 || fatal || results.length === 0 ? 1 : 0;
}
