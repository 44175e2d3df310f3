// vitest's default reporter: "Failed Tests" and "Failed Suites" sections of " FAIL  file > suite
// > test" blocks (a message, a code frame and "❯ [fn] file:line:col" frames), then "Tests  2
// failed | 1 passed | 1 skipped (4)". A whole file under "Failed Suites" ("FAIL  file [ file ]")
// could not load: its transform error names "File: /abs/file:line:col" (column counted from 0),
// except vite's import analysis of a .js file, which says 1:0 for any syntax error.
import { firstWorkspaceFrame, relativeTo, type SourceLocation } from '../locate.js';
import { dedent, messageText, tidy } from '../message-text.js';
import { countsFrom, type OutputParser, type TestFailure } from '../test-report.js';

const CODE_FRAME = /^\s*\d+\s*\||^\s+\|/;
const FRAME = /^\s*❯ /;

export const vitestParser: OutputParser = {
  runner: 'vitest',
  detect: (o) => /^\s+Test Files\s+.*\(\d+\)\s*$/m.test(o),
  parse(output, { root }) {
    const summary = /^\s+Tests\s+(.*)$/m.exec(output)?.[1] ?? '';
    const failures: TestFailure[] = [];
    for (const { header, lines } of blocks(output.split('\n'))) {
      const whole = /^(\S+) \[ (\S+) \]$/.exec(header);
      failures.push(whole ? loadError(relativeTo(whole[1]!, root), lines, root) : testFailure(header, lines, root));
    }
    failures.sort((a, b) => Number(b.kind === 'load_error') - Number(a.kind === 'load_error'));
    const { passed, failed, skipped } = countsFrom(summary.replace(/\|/g, ','));
    return { runner: 'vitest', passed, failed, skipped, failures };
  },
};

/**
 * " FAIL  header" blocks up to the "⎯⎯⎯[1/3]⎯" rule or the summary. Tests that failed with the
 * same error are printed as consecutive headers over one error: each gets that error.
 */
function blocks(lines: readonly string[]): { header: string; lines: string[] }[] {
  const out: { header: string; lines: string[] }[] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    const fail = /^ FAIL {1,2}(.*)$/.exec(line);
    if (fail) out.push({ header: fail[1]!.trim(), lines: (current = []) });
    else if (/⎯{3,}|^\s+Test Files\s/.test(line)) current = undefined;
    else current?.push(line);
  }
  for (let i = out.length - 2; i >= 0; i--) if (out[i]!.lines.length === 0) out[i]!.lines = out[i + 1]!.lines;
  return out;
}

function testFailure(header: string, lines: readonly string[], root: string): TestFailure {
  const [file, ...names] = header.split(' > ');
  const where = firstWorkspaceFrame(
    lines.filter((l) => FRAME.test(l)),
    root,
  ) ?? { file: relativeTo(file!, root) };
  const message = messageText(
    lines.filter((l) => !CODE_FRAME.test(l)),
    (l) => FRAME.test(l),
  );
  return { kind: 'test_failure', name: names.length ? names.join(' > ') : file!, ...where, message };
}

function loadError(file: string, lines: readonly string[], root: string): TestFailure {
  const failure: TestFailure = { kind: 'load_error', name: file, file, message: '' };
  const fileLine = lines.findIndex((l) => /^\s*File: /.test(l));
  const pos = /^\s*File: (\S+):(\d+):(\d+)\s*$/.exec(lines[fileLine] ?? '');
  // vite's import analysis cannot place a JavaScript syntax error and says 1:0: the file is right, the line is not.
  const unplaced = pos?.[2] === '1' && pos[3] === '0' && lines.some((l) => /^\s*Plugin: vite:import-analysis\s*$/.test(l));
  if (unplaced) {
    const rejected = relativeTo(pos[1]!, root);
    failure.message = messageText(lines.slice(0, fileLine), (l) => /^\s*Plugin: /.test(l));
    return { ...failure, file: rejected, unplaced: { type: 'rejected_file', file: rejected } };
  }
  const at: SourceLocation | undefined = pos
    ? { file: relativeTo(pos[1]!, root), line: Number(pos[2]), column: Number(pos[3]) + 1 }
    : firstWorkspaceFrame(
        lines.filter((l) => FRAME.test(l)),
        root,
      );
  if (at) Object.assign(failure, at);
  const head = lines.slice(0, fileLine >= 0 ? fileLine : lines.length).filter((l) => !/^\s*Plugin: /.test(l));
  failure.message = messageText(head, (l) => FRAME.test(l) || CODE_FRAME.test(l)) || 'failed to load';
  const frame = lines.filter((l) => CODE_FRAME.test(l));
  if (frame.length) failure.context = tidy(dedent(frame));
  return failure;
}
