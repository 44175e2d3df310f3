// bun test: per file "test/x.test.js:", then per test "(pass) name" or the failure printed
// before its "(fail) name": a code frame (" 9 |   expect(…)" and a caret), "error: message",
// and frames "at f (/abs/file:line:col)". An error outside any test is "# Unhandled error
// between tests" between dashed rules (a module that cannot load: a code frame and "at
// /abs/lib/x.js:3:30"). Counts: " 3 pass / 2 fail / 1 skip / 2 errors".
import { firstWorkspaceFrame, relativeTo } from '../locate.js';
import { dedent, JS_FRAME, tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const FILE = /^(\S+\.[cm]?[jt]sx?):$/;
const RESULT = /^\((pass|fail|skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$/;
const CODE_FRAME = /^\s*\d+ \|/;
const CARET = /^\s*\^\s*$/;
const RULE = /^-{10,}$/;

export const bunParser: OutputParser = {
  runner: 'bun',
  detect: (o) => /^bun test v\d/m.test(o) || (/^\s+\d+ pass$/m.test(o) && /^\s+\d+ fail$/m.test(o)),
  parse(output, { root }) {
    const count = (key: string) => Number(new RegExp(`^\\s+(\\d+) ${key}$`, 'm').exec(output)?.[1] ?? 0);
    const failures: TestFailure[] = [];
    let file = '';
    let pending: string[] = [];
    let unhandled: string[] | undefined;
    let rules = 0;
    let previous: TestFailure | undefined;
    for (const line of output.split('\n')) {
      if (unhandled) {
        if (!RULE.test(line)) unhandled.push(line);
        else if (++rules === 2) {
          previous = unhandledError(unhandled, file, previous, root);
          failures.push(previous);
          unhandled = undefined;
        }
        continue;
      }
      const f = FILE.exec(line);
      const r = RESULT.exec(line);
      if (f) [file, pending] = [relativeTo(f[1]!, root), []];
      else if (/^# Unhandled error between tests/.test(line)) [unhandled, rules] = [[], 0];
      else if (r) {
        if (r[1] === 'fail') failures.push(testFailure(r[2]!, pending, file, root));
        pending = [];
      } else pending.push(line);
    }
    const loadErrors = failures.filter((f) => f.kind === 'load_error').length;
    return {
      runner: 'bun',
      passed: count('pass'),
      failed: Math.max(0, count('fail') - loadErrors),
      skipped: count('skip') + count('todo'),
      failures,
    };
  },
};

function testFailure(name: string, lines: readonly string[], file: string, root: string): TestFailure {
  const at = firstWorkspaceFrame(
    lines.filter((l) => JS_FRAME.test(l)),
    root,
  );
  const from = lines.findIndex((l) => /^error: /.test(l));
  const message = tidy(dedent((from < 0 ? lines : lines.slice(from)).filter((l) => !JS_FRAME.test(l)))).replace(/^error: /, '');
  return { kind: 'test_failure', name: `${file} > ${name}`, ...(at ?? { file }), message: message || 'failed' };
}

/**
 * The error between tests of a file. An empty report repeats the last one: bun prints a module's
 * error once, for the first file that imported it.
 */
function unhandledError(lines: readonly string[], file: string, previous: TestFailure | undefined, root: string): TestFailure {
  const body = lines.filter((l) => l.trim() !== '');
  if (body.length === 0)
    return previous
      ? { ...previous, name: file }
      : { kind: 'load_error', name: file, message: 'an error between tests (bun printed no detail)' };
  const at = firstWorkspaceFrame(
    body.filter((l) => JS_FRAME.test(l)),
    root,
  );
  const message = tidy(body.filter((l) => /^error: /.test(l)).map((l) => l.replace(/^error: /, '')));
  const frame = body.filter((l) => CODE_FRAME.test(l) || CARET.test(l));
  return {
    kind: 'load_error',
    name: file,
    ...at,
    message: message || tidy(body.filter((l) => !JS_FRAME.test(l))),
    ...(frame.length ? { context: tidy(dedent(frame)) } : {}),
  };
}
