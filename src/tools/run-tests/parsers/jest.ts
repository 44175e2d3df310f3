// jest's default reporter: "FAIL file" then "● suite › test" blocks with a message, a code frame
// and a stack; "● Test suite failed to run" when the file could not load (babel's
// "SyntaxError: /abs/file: message (line:col)" under "Details:", ts-jest's "file:line:col - error
// TS…", or a plain error with a stack); then "Tests: 2 failed, 1 skipped, 1 passed, 4 total".
import { firstWorkspaceFrame, relativeTo, type SourceLocation } from '../locate.js';
import { dedent, JS_FRAME, messageText, tidy } from '../message-text.js';
import { countsFrom, type OutputParser, type TestFailure } from '../test-report.js';

const CODE_FRAME = /^\s*>?\s*\d+ \||^\s+\|/;
const SUITE_FAILED = 'Test suite failed to run';

export const jestParser: OutputParser = {
  runner: 'jest',
  detect: (o) => /^Tests:\s+.*\d+ total/m.test(o) || /^Test Suites:\s+.*\d+ total/m.test(o),
  parse(output, { root }) {
    const summary = /^Tests:\s+(.*)$/m.exec(output)?.[1] ?? '';
    const body = output.split(/^Summary of all failing tests$/m)[0]!;
    const failures: TestFailure[] = [];
    const seen = new Set<string>();
    for (const { suite, title, lines } of blocks(body.split('\n'))) {
      if (title === SUITE_FAILED) {
        failures.push(loadError(suite, lines, root));
        continue;
      }
      const name = title.replace(/ › /g, ' > ');
      if (seen.has(name)) continue;
      seen.add(name);
      const where = firstWorkspaceFrame(
        lines.filter((l) => JS_FRAME.test(l)),
        root,
      );
      failures.push({ kind: 'test_failure', name, ...where, message: messageText(lines.filter((l) => !CODE_FRAME.test(l))) });
    }
    failures.sort((a, b) => Number(b.kind === 'load_error') - Number(a.kind === 'load_error'));
    const { passed, failed, skipped } = countsFrom(summary);
    return { runner: 'jest', passed, failed, skipped, failures };
  },
};

interface Block {
  suite: string;
  title: string;
  lines: string[];
}

/** "● title" blocks, each with the test file of the "FAIL file" line above it. */
function blocks(lines: readonly string[]): Block[] {
  const out: Block[] = [];
  let suite = '';
  let current: Block | undefined;
  for (const line of lines) {
    const fail = /^(?:FAIL|PASS) (\S+)/.exec(line);
    const title = /^\s*● (.*)$/.exec(line);
    if (fail) {
      suite = fail[1]!;
      current = undefined;
    } else if (title) out.push((current = { suite, title: title[1]!.trim(), lines: [] }));
    else if (/^(Test Suites|Tests|Snapshots|Time):/.test(line)) current = undefined;
    else current?.lines.push(line);
  }
  return out;
}

function loadError(suite: string, lines: readonly string[], root: string): TestFailure {
  const file = relativeTo(suite, root);
  const details = lines.findIndex((l) => l.trim() === 'Details:');
  const body = details >= 0 ? lines.slice(details + 1) : lines;
  const frame = body.filter((l) => CODE_FRAME.test(l));
  const failure: TestFailure = { kind: 'load_error', name: file, file, message: '' };
  const babel = /^\s*(\w*Error): (\S+): (.*?) \((\d+):(\d+)\)\s*$/.exec(body.find((l) => l.trim()) ?? '');
  const tsc = /^\s*(\S+\.[cm]?tsx?):(\d+):(\d+) - (error TS\d+: .*)$/.exec(body.find((l) => l.trim()) ?? '');
  let at: SourceLocation | undefined;
  if (babel) {
    failure.message = `${babel[1]}: ${babel[3]}`;
    at = { file: relativeTo(babel[2]!, root), line: Number(babel[4]), column: Number(babel[5]) + 1 };
  } else if (tsc) {
    failure.message = tidy(dedent([tsc[4]!, ...body.slice(body.findIndex((l) => l.trim()) + 1).filter((l) => !CODE_FRAME.test(l))]));
    at = { file: relativeTo(tsc[1]!, root), line: Number(tsc[2]), column: Number(tsc[3]) };
  } else {
    failure.message = messageText(body.filter((l) => !CODE_FRAME.test(l))) || SUITE_FAILED;
    at = firstWorkspaceFrame(
      body.filter((l) => JS_FRAME.test(l)),
      root,
    );
  }
  if (at) Object.assign(failure, at);
  if (frame.length) failure.context = tidy(dedent(frame));
  return failure;
}
