// Python's unittest: a line of dots and letters, then per failure "ERROR: test (module.Class.test)"
// or "FAIL: …" between "====" and "----" rules, a traceback printed innermost last, the exception
// lines; then "Ran N tests" and "OK" / "FAILED (failures=1, errors=1, skipped=1)". A test module
// that cannot import is an ERROR of "unittest.loader._FailedTest": a load error at the
// traceback's innermost workspace line (a SyntaxError's own "File …, line N").
import { inWorkspace, relativeTo, type SourceLocation } from '../locate.js';
import { dedent, tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const HEAD = /^(ERROR|FAIL|UNEXPECTED SUCCESS): (\S+) \((.*)\)$/;
const FILE_LINE = /^\s+File "(.+)", line (\d+)/;

export const unittestParser: OutputParser = {
  runner: 'unittest',
  detect: (o) => /^Ran \d+ tests? in [\d.]+s$/m.test(o) && /^(?:OK|FAILED)\b/m.test(o),
  parse(output, { root }) {
    const ran = Number(/^Ran (\d+) tests?/m.exec(output)?.[1] ?? 0);
    const status = /^(?:OK|FAILED)(?: \((.*)\))?$/m.exec(output)?.[1] ?? '';
    const n = (key: string) => Number(new RegExp(`\\b${key}=(\\d+)`).exec(status)?.[1] ?? 0);
    const failures = blocks(output).map((b) => failureOf(b, root));
    failures.sort((a, b) => Number(b.kind === 'load_error') - Number(a.kind === 'load_error'));
    const loadErrors = failures.filter((f) => f.kind === 'load_error').length;
    const failed = n('failures') + n('errors') + n('unexpected successes') - loadErrors;
    const skipped = n('skipped') + n('expected failures');
    return { runner: 'unittest', passed: Math.max(0, ran - loadErrors - failed - skipped), failed, skipped, failures };
  },
};

function blocks(output: string): string[][] {
  const out: string[][] = [];
  let current: string[] | undefined;
  for (const line of output.split('\n')) {
    if (/^={20,}$/.test(line)) current = undefined;
    else if (HEAD.test(line)) out.push((current = [line]));
    else if (/^-{20,}$/.test(line) && current && current.length > 1) current = undefined;
    else if (/^Ran \d+ tests?/.test(line)) current = undefined;
    else current?.push(line);
  }
  return out;
}

function failureOf(block: readonly string[], root: string): TestFailure {
  const head = HEAD.exec(block[0]!)!;
  const body = block.slice(1).filter((l) => !/^-{20,}$/.test(l));
  const loadError = head[3]!.startsWith('unittest.loader._FailedTest');
  const at = innermost(body, root);
  // The exception: the lines after the traceback's last frame and its source lines.
  const lastFrame = body.map((l) => FILE_LINE.test(l)).lastIndexOf(true);
  const after = body.slice(lastFrame + 1);
  const exceptionAt = after.findIndex((l) => /^\S/.test(l));
  const message = tidy(exceptionAt < 0 ? after : after.slice(exceptionAt)) || head[1]!;
  const context = exceptionAt > 0 ? tidy(dedent(after.slice(0, exceptionAt))) : '';
  if (loadError) {
    const module = head[2]!;
    return {
      kind: 'load_error',
      name: module,
      ...(at ?? {}),
      message,
      ...(context && /SyntaxError|IndentationError/.test(message) ? { context } : {}),
    };
  }
  const [cls, method] = [head[3]!.split('.').slice(-2, -1)[0], head[2]!];
  return { kind: 'test_failure', name: cls ? `${cls} > ${method}` : method, ...(at ?? {}), message };
}

/** The innermost traceback line inside the workspace (a dependency's or the standard library's are skipped). */
function innermost(lines: readonly string[], root: string): SourceLocation | undefined {
  for (const l of [...lines].reverse()) {
    const m = FILE_LINE.exec(l);
    if (!m) continue;
    const file = relativeTo(m[1]!, root);
    if (inWorkspace(file, root) && !/(?:^|\/)(?:lib\/python[\d.]+|site-packages)\//.test(file)) return { file, line: Number(m[2]) };
  }
  return undefined;
}
