// ava's default reporter: one "✔ file › test" / "✘ [fail]: file › test message" line per test,
// then, between "─" rules, a block per failure headed by its name (an assertion's source line
// "test/x.js:9", its difference, "› file://test/x.js:9:5"; or a thrown error and its stack), and
// "2 tests failed". A file that cannot load is "Uncaught exception in test/x.js" and the error
// (ava prints no location for an ES module's syntax error).
import { firstWorkspaceFrame, frameIn, inWorkspace, relativeTo } from '../locate.js';
import { dedent, JS_FRAME, tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const RESULT = /^\s+([✔✘↓-]) (?:\[(\w+)\]: )?(.*)$/;
const UNCAUGHT = /^\s+Uncaught exception in (\S+)$/;
const RULE = /^\s+─+\s*$/;
const SOURCE_LINE = /^\s*\d+: /;
const BARE_AT = /^\s*(\S+\.[A-Za-z0-9]+):(\d+)\s*$/;

export const avaParser: OutputParser = {
  runner: 'ava',
  detect: (o) =>
    /^\s+\d+ (?:tests? (?:failed|passed)|uncaught exceptions?|known failure)/m.test(o) && /^\s+(?:[✔✘] |Uncaught exception in )/m.test(o),
  parse(output, { root }) {
    const lines = output.split('\n');
    const rule = lines.findIndex((l) => RULE.test(l));
    const results = (rule < 0 ? lines : lines.slice(0, rule)).map((l) => RESULT.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    const failedNames = results.filter((m) => m[1] === '✘' && m[2] === 'fail').map((m) => m[3]!);
    const failures: TestFailure[] = [...uncaught(lines, root), ...detailBlocks(lines, failedNames, root)];
    return {
      runner: 'ava',
      passed: results.filter((m) => m[1] === '✔').length,
      failed: failedNames.length,
      skipped: results.filter((m) => m[1] === '-' || m[2] === 'skip' || m[2] === 'todo').length,
      failures,
    };
  },
};

function uncaught(lines: readonly string[], root: string): TestFailure[] {
  const out: TestFailure[] = [];
  lines.forEach((l, i) => {
    const m = UNCAUGHT.exec(l);
    if (!m) return;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !/^\s+[✘✔─]/.test(lines[j]!) && !UNCAUGHT.test(lines[j]!); j++) body.push(lines[j]!);
    const file = relativeTo(m[1]!, root);
    const at = firstWorkspaceFrame(
      body.filter((b) => JS_FRAME.test(b)),
      root,
    );
    const message = tidy(dedent(body.filter((b) => !JS_FRAME.test(b))));
    // No location of its own: the file that failed is the name, the place is unknown.
    out.push({ kind: 'load_error', name: file, ...(at ?? {}), message: message || 'uncaught exception' });
  });
  return out;
}

/** The failure blocks between the rules, each starting with a failed test's name. */
function detailBlocks(lines: readonly string[], names: readonly string[], root: string): TestFailure[] {
  const first = lines.findIndex((l) => RULE.test(l));
  if (first < 0) return names.map((name) => ({ kind: 'test_failure', name, message: 'failed' }));
  const blocks = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines.slice(first + 1)) {
    if (RULE.test(line)) break;
    const name = names.find((n) => line.trim() === n || line.trim() === nameOf(n));
    if (name && /^ {2}\S/.test(line)) blocks.set(name, (current = []));
    else current?.push(line);
  }
  return names.map((n) => failureOf(nameOf(n), blocks.get(n) ?? [], root));
}

/** "file › test Error thrown in test" → "file › test": the message ava appends is in the block. */
function nameOf(resultText: string): string {
  return resultText.replace(/ (?:Error thrown in test|Rejected promise returned by test|Test timed out)$/, '');
}

function failureOf(name: string, block: readonly string[], root: string): TestFailure {
  const stack = firstWorkspaceFrame(
    block.filter((l) => JS_FRAME.test(l)),
    root,
  );
  const pointer = block.map((l) => /^\s*› (\S+)$/.exec(l)?.[1]).find(Boolean);
  const bare = block.map((l) => BARE_AT.exec(l)).find(Boolean);
  const fromPointer = pointer ? frameIn(` ${pointer.replace(/^file:\/\/(?!\/)/, '')}`, root) : undefined;
  const at =
    stack ??
    (fromPointer && inWorkspace(fromPointer.file, root) ? fromPointer : undefined) ??
    (bare ? { file: relativeTo(bare[1]!, root), line: Number(bare[2]) } : undefined);
  const message = tidy(dedent(block.filter((l) => !JS_FRAME.test(l) && !SOURCE_LINE.test(l) && !BARE_AT.test(l) && !/^\s*› /.test(l))));
  return { kind: 'test_failure', name: name.replace(/ › /g, ' > '), ...at, message: message || 'failed' };
}
