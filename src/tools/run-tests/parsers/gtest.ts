// GoogleTest: "[ RUN      ] Suite.Name" opens a test, "path.cc:LINE: Failure" and the lines after
// it are an assertion that failed, "[  FAILED  ] Suite.Name (N ms)" closes it; "[  PASSED  ] N
// tests." and "[  SKIPPED ] N tests" count a binary's run (several binaries add up).
import { relativeTo } from '../locate.js';
import { tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const RUN = /^\[ RUN {6}\] (.+)$/;
const ENDED = /^\[ {2}(?:FAILED|SKIPPED| {5}OK) {2}\] (.+?) \(\d+ ms\)$/;
const FAILURE_AT = /^(.+?)(?::(\d+)|\((\d+)\)): (?:Failure|error:)(.*)$/;

export const gtestParser: OutputParser = {
  runner: 'gtest',
  detect: (o) => /^\[=+\] \d+ tests? from \d+ test (?:suites?|cases?) ran\./m.test(o) || /^\[ RUN {6}\] /m.test(o),
  parse(output, { root }) {
    const n = (re: RegExp) => [...output.matchAll(re)].reduce((sum, m) => sum + Number(m[1]), 0);
    const failures = failedTests(output.split('\n'), root);
    return {
      runner: 'gtest',
      passed: n(/^\[ {2}PASSED {2}\] (\d+) tests?\./gm),
      failed: failures.length,
      skipped: n(/^\[ {2}SKIPPED \] (\d+) tests?,/gm),
      failures,
    };
  },
};

/** Each test that ended FAILED, at its first failed assertion. */
function failedTests(lines: readonly string[], root: string): TestFailure[] {
  const out: TestFailure[] = [];
  let name: string | undefined;
  let body: string[] = [];
  for (const line of lines) {
    const run = RUN.exec(line);
    if (run) {
      [name, body] = [run[1]!, []];
      continue;
    }
    const ended = ENDED.exec(line);
    if (ended && name !== undefined) {
      if (line.startsWith('[  FAILED  ]')) out.push(failure(name, body, root));
      name = undefined;
      continue;
    }
    if (name !== undefined) body.push(line);
  }
  return out;
}

function failure(name: string, body: readonly string[], root: string): TestFailure {
  const first = body.findIndex((l) => FAILURE_AT.test(l));
  if (first < 0) return { kind: 'test_failure', name, message: tidy(body) || 'failed' };
  const m = FAILURE_AT.exec(body[first]!)!;
  const message = [m[4]!.trim(), ...body.slice(first + 1)].filter((l, i) => i > 0 || l);
  return { kind: 'test_failure', name, file: relativeTo(m[1]!, root), line: Number(m[2] ?? m[3]), message: tidy(message) || 'failed' };
}
