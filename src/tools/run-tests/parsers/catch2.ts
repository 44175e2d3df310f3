// Catch2 (v2 and v3): each failing test case is a block — its name (and sections, indented)
// between two rules of dashes, where it is declared and a rule of dots — followed by each failed
// assertion, "path.cpp:LINE: FAILED:" then the expression and its expansion. A binary's run ends
// with "test cases: 5 | 4 passed | 1 failed" or "All tests passed (6 assertions in 5 test
// cases)"; several binaries (or runs) add up.
import { relativeTo } from '../locate.js';
import { dedent, tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const DASHES = /^-{20,}$/;
const DOTS = /^\.{20,}$/;
const FAILED_AT = /^(.+?):(\d+): FAILED:$/;
const SUMMARY = /^test cases:\s+(\d+)((?:\s+\|\s+\d+ \w+)*)\s*$/gm;
const ALL_PASSED = /^All tests passed \(\d+ assertions? in (\d+) test cases?\)$/gm;

export const catch2Parser: OutputParser = {
  runner: 'catch2',
  detect: (o) => /^test cases:\s+\d+\s+\|/m.test(o) || /^All tests passed \(\d+ assertions? in \d+ test cases?\)$/m.test(o),
  parse(output, { root }) {
    let [passed, failed, skipped] = [0, 0, 0];
    for (const m of output.matchAll(SUMMARY)) {
      const part = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(m[2]!)?.[1] ?? 0);
      [passed, failed, skipped] = [passed + part('passed'), failed + part('failed'), skipped + part('skipped')];
    }
    for (const m of output.matchAll(ALL_PASSED)) passed += Number(m[1]);
    return { runner: 'catch2', passed, failed, skipped, failures: failedCases(output.split('\n'), root) };
  },
};

/** One failure per failing test case: its first failed assertion, located. */
function failedCases(lines: readonly string[], root: string): TestFailure[] {
  const out: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!DASHES.test(lines[i]!)) continue;
    const close = lines.findIndex((l, k) => k > i && DASHES.test(l));
    if (close < 0 || close - i > 6) continue;
    const name = dedent(lines.slice(i + 1, close))
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' > ');
    const dots = lines.findIndex((l, k) => k > close && DOTS.test(l));
    if (!name || dots < 0 || dots - close > 3) continue;
    const end = blockEnd(lines, dots + 1);
    const body = lines.slice(dots + 1, end);
    const at = body.findIndex((l) => FAILED_AT.test(l));
    if (at >= 0 && !out.some((f) => f.name === name)) {
      const m = FAILED_AT.exec(body[at]!)!;
      const next = body.findIndex((l, k) => k > at && FAILED_AT.test(l));
      const message = tidy(dedent(body.slice(at + 1, next < 0 ? undefined : next)));
      out.push({ kind: 'test_failure', name, file: relativeTo(m[1]!, root), line: Number(m[2]), message: message || 'failed' });
    }
    i = end - 1;
  }
  return out;
}

/** Where a test case's block ends: the next rule of dashes or of equals signs. */
function blockEnd(lines: readonly string[], from: number): number {
  for (let k = from; k < lines.length; k++) if (DASHES.test(lines[k]!) || /^={20,}$/.test(lines[k]!)) return k;
  return lines.length;
}
