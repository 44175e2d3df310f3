// jasmine's default reporter: "Failures:" then "1) suite spec" blocks with "Message:" and
// "Stack:" (frames "at <Jasmine>" between the user's), then "5 specs, 2 failures[, 1 pending
// spec]". A spec file that cannot load stops the run: "Error: While loading /abs/spec.js:
// SyntaxError: …" (no location for an ES module's syntax error).
import { firstWorkspaceFrame, relativeTo } from '../locate.js';
import { JS_FRAME, tidy, dedent } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const LOADING = /^Error: While loading (\S+?): (.*)$/m;

export const jasmineParser: OutputParser = {
  runner: 'jasmine',
  detect: (o) => /^\d+ specs?, \d+ failures?/m.test(o) || LOADING.test(o),
  parse(output, { root }) {
    const summary = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?/m.exec(output);
    const failures: TestFailure[] = [];
    const loading = LOADING.exec(output);
    if (loading) {
      const file = relativeTo(loading[1]!, root);
      failures.push({ kind: 'load_error', name: file, file, message: loading[2]! });
    }
    const section = output.split(/^Failures:$/m)[1]?.split(/^\d+ specs?, /m)[0] ?? '';
    for (const block of section.split(/^(?=\d+\) )/m).filter((b) => /^\d+\) /.test(b))) failures.push(failureOf(block, root));
    const [specs, failed, pending] = [1, 2, 3].map((k) => Number(summary?.[k] ?? 0));
    return { runner: 'jasmine', passed: Math.max(0, specs! - failed! - pending!), failed: failed!, skipped: pending!, failures };
  },
};

function failureOf(block: string, root: string): TestFailure {
  const lines = block.split('\n');
  const name = /^\d+\) (.*)$/.exec(lines[0]!)![1]!.trim();
  const stackAt = lines.findIndex((l) => /^\s+Stack:\s*$/.test(l));
  const messageLines = lines.slice(1, stackAt < 0 ? lines.length : stackAt).filter((l) => !/^\s+Message:\s*$/.test(l));
  const at = firstWorkspaceFrame(
    lines.filter((l) => JS_FRAME.test(l)),
    root,
  );
  return { kind: 'test_failure', name, ...at, message: tidy(dedent(messageLines)) || 'failed' };
}
