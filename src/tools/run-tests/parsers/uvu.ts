// uvu: per file "name.test.js" then "• • ✘ (2 / 3)", a " FAIL  "test name"" block per failure
// with the message (an assertion's expected/actual lines) and the stack, then "Total: / Passed:
// / Skipped:". A module that cannot load ends the run with the bare error and no location.
import { firstWorkspaceFrame } from '../locate.js';
import { JS_FRAME, messageText } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const FAIL = /^\s+FAIL\s+"(.*)"\s*$/;
const FILE = /^(\S+\.[cm]?[jt]sx?)\s*$/;

export const uvuParser: OutputParser = {
  runner: 'uvu',
  detect: (o) => /^\s+Total:\s+\d+\s*$/m.test(o) && /^\s+Passed:\s+\d+/m.test(o),
  parse(output, { root }) {
    const n = (key: string) => Number(new RegExp(`^\\s+${key}:\\s+(\\d+)`, 'm').exec(output)?.[1] ?? 0);
    const lines = output.split('\n');
    const failures: TestFailure[] = [];
    let file: string | undefined;
    let current: { name: string; lines: string[] } | undefined;
    const flush = () => current && failures.push(failureOf(current.name, current.lines, file, root));
    for (const line of lines) {
      const f = FILE.exec(line);
      const fail = FAIL.exec(line);
      if (f || fail || /^\s+Total:/.test(line)) {
        flush();
        current = fail ? { name: fail[1]!, lines: [] } : undefined;
        if (f) file = f[1];
        continue;
      }
      current?.lines.push(line);
    }
    const total = n('Total');
    const passed = n('Passed');
    const skipped = n('Skipped');
    return { runner: 'uvu', passed, failed: Math.max(failures.length, total - passed - skipped), skipped, failures };
  },
};

function failureOf(name: string, lines: readonly string[], file: string | undefined, root: string): TestFailure {
  const at = firstWorkspaceFrame(
    lines.filter((l) => JS_FRAME.test(l)),
    root,
  );
  const named = file ? `${file} > ${name}` : name;
  return { kind: 'test_failure', name: named, ...at, message: messageText(lines) || 'failed' };
}
