// CTest: "N/M Test #K: name ....   Passed" per test, "75% tests passed, 1 tests failed out of 4"
// at the end and "The following tests FAILED:" with each one's number and name. With
// --output-on-failure a failed test's own output follows its line: when it is GoogleTest's or
// Catch2's, the failure is placed at the assertion that failed there.
import type { OutputParser, TestFailure } from '../test-report.js';
import { catch2Parser } from './catch2.js';
import { gtestParser } from './gtest.js';

const TOTALS = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/m;
const RESULT =
  /^\s*\d+\/\d+ Test +#\d+: (.+?) \.+\s*(\*{3})?(Passed|Failed|Not Run|Timeout|Exception|SEGFAULT|Subprocess aborted|Child aborted|\*?\w[\w ]*?)\s+[\d.]+ sec$/;

export const ctestParser: OutputParser = {
  runner: 'ctest',
  detect: (o) => TOTALS.test(o),
  parse(output, ctx) {
    const totals = TOTALS.exec(output)!;
    const [failed, total] = [Number(totals[1]), Number(totals[2])];
    const skipped = [...output.matchAll(/^\s*\d+\/\d+ Test +#\d+: .+? \.+\s*\*{0,3}(?:Not Run|Skipped|Disabled)\b/gm)].length;
    const lines = output.split('\n');
    const failures: TestFailure[] = [];
    lines.forEach((line, i) => {
      const r = RESULT.exec(line);
      if (!r || r[3] === 'Passed' || /Not Run|Skipped|Disabled/.test(r[3]!)) return;
      const own = ownOutput(lines, i + 1);
      failures.push(placed(r[1]!, r[3]!, own, ctx));
    });
    return { runner: 'ctest', passed: total - failed - skipped, failed, skipped, failures };
  },
};

/** The test's own output, printed after its result line until the next test starts or the totals. */
function ownOutput(lines: readonly string[], from: number): string {
  const out: string[] = [];
  for (const l of lines.slice(from)) {
    if (/^\s+Start +\d+: /.test(l) || RESULT.test(l) || TOTALS.test(l)) break;
    out.push(l);
  }
  return out.join('\n');
}

function placed(name: string, status: string, own: string, ctx: Parameters<OutputParser['parse']>[1]): TestFailure {
  for (const parser of [gtestParser, catch2Parser]) {
    if (!parser.detect(own)) continue;
    const inner = parser.parse(own, ctx).failures[0];
    if (inner) return { ...inner, name };
  }
  const text = own.trim();
  return { kind: 'test_failure', name, message: text ? text.split('\n').slice(-20).join('\n') : status };
}
