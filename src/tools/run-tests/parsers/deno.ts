// deno test: "running N tests from ./test/x.test.js", "name ... ok|FAILED|ignored", an ERRORS
// section of "name => ./test/x.test.js:8:6" blocks (the error, a source line with a caret,
// frames "at f (file:///abs/lib/x.js:5:11)"), then "FAILED | 3 passed | 2 failed | 1 ignored".
// A module that cannot load stops deno before any test: "error: SyntaxError: …" with a code
// frame and "at file:///abs/lib/x.js:3:30".
import { firstWorkspaceFrame, relativeTo } from '../locate.js';
import { dedent, JS_FRAME, tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const HEADER = /^(.*?) => (\S+?):(\d+):(\d+)$/;

export const denoParser: OutputParser = {
  runner: 'deno',
  detect: (o) =>
    /^running \d+ tests? from /m.test(o) ||
    /^(?:ok|FAILED) \| \d+ passed/m.test(o) ||
    /^error: \w*Error: [\s\S]*?^\s+at file:\/\//m.test(o),
  parse(output, { root }) {
    const summary = /^(?:ok|FAILED) \| (.*)$/m.exec(output)?.[1] ?? '';
    const n = (key: string) => Number(new RegExp(`(\\d+) ${key}`).exec(summary)?.[1] ?? 0);
    const failures: TestFailure[] = [];
    const errors = output.split(/^\s*ERRORS\s*$/m)[1]?.split(/^\s*FAILURES\s*$/m)[0];
    if (errors !== undefined) for (const block of blocks(errors)) failures.push(testFailure(block, root));
    else if (/^error: /m.test(output) && !/^running \d+ tests? from /m.test(output)) failures.push(loadError(output, root));
    return { runner: 'deno', passed: n('passed'), failed: n('failed'), skipped: n('ignored') + n('filtered out'), failures };
  },
};

function blocks(section: string): string[][] {
  const out: string[][] = [];
  for (const line of section.split('\n')) {
    if (HEADER.test(line)) out.push([]);
    out[out.length - 1]?.push(line);
  }
  return out;
}

function testFailure(block: readonly string[], root: string): TestFailure {
  const head = HEADER.exec(block[0]!)!;
  const declared = { file: relativeTo(head[2]!, root), line: Number(head[3]), column: Number(head[4]) };
  const at =
    firstWorkspaceFrame(
      block.filter((l) => JS_FRAME.test(l)),
      root,
    ) ?? declared;
  const body = block.slice(1).filter((l) => !JS_FRAME.test(l) && !/^\s*\^\s*$/.test(l));
  const message = tidy(dedent(body)).replace(/^error: /, '');
  return { kind: 'test_failure', name: `${declared.file} > ${head[1]!}`, ...at, message: message || 'failed' };
}

function loadError(output: string, root: string): TestFailure {
  const lines = output.split('\n');
  const from = lines.findIndex((l) => /^error: /.test(l));
  const body = lines.slice(from);
  const at = firstWorkspaceFrame(
    body.filter((l) => JS_FRAME.test(l)),
    root,
  );
  const frame = body.filter((l) => /^\s*\d* \|/.test(l));
  const failure: TestFailure = { kind: 'load_error', name: at?.file ?? 'deno', ...at, message: body[0]!.replace(/^error: /, '') };
  if (frame.length) failure.context = tidy(dedent(frame));
  return failure;
}
