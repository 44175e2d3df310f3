// Node's printout of an error that escapes while a module loads (a syntax error, a throw at the
// top level, a missing import):
//   file:///abs/test/broken.test.mjs:7      ← file and line
//       const value = {;                    ← the source line
//                      ^                    ← the column
//   (blank)
//   SyntaxError: Unexpected token ';'       ← the message
//       at …
// node --test relays it from the test file's process (TAP prefixes it with "# "); mocha prints
// it after "Exception during run: ". Without the header (a missing module), the message and
// the first workspace frame are what there is.
import { caretColumn, firstWorkspaceFrame, inWorkspace, relativeTo, type SourceLocation } from '../locate.js';
import { dedent, JS_FRAME, tidy } from '../message-text.js';
import type { TestFailure } from '../test-report.js';

const HEADER = /^((?:file:\/\/)?\S+\.[A-Za-z0-9]+):(\d+)$/;
const ERROR_LINE = /^(?:[A-Z]\w*(?:Error|Exception)|Error)\b.*?:|^\w*Error\b/;

/** A load error from the printout starting at lines[0] (the header, or the message when there is none). */
export function nodeLoadError(lines: readonly string[], name: string, root: string): TestFailure {
  const header = HEADER.exec(lines[0] ?? '');
  const hasCaret = header !== null && /^\s*\^+\s*$/.test(lines[2] ?? '');
  const bodyStart = header ? (hasCaret ? 3 : 1) : 0;
  const body = lines.slice(bodyStart);
  const messageAt = body.findIndex((l) => l.trim() !== '');
  const messageLines: string[] = [];
  for (const l of body.slice(Math.max(0, messageAt))) {
    if (JS_FRAME.test(l) || l.trim() === '' || /^Node\.js v\d/.test(l)) break;
    messageLines.push(l);
  }
  const failure: TestFailure = { kind: 'load_error', name, message: tidy(messageLines) || 'failed to load' };
  const at: SourceLocation | undefined = header
    ? { file: relativeTo(header[1]!, root), line: Number(header[2]) }
    : firstWorkspaceFrame(
        body.filter((l) => JS_FRAME.test(l)),
        root,
      );
  if (at) Object.assign(failure, { file: at.file, line: at.line }, at.column ? { column: at.column } : {});
  if (hasCaret) {
    const column = caretColumn(lines[1], lines[2]);
    if (column) failure.column = column;
    failure.context = tidy(dedent([lines[1]!, lines[2]!]));
  }
  return failure;
}

/**
 * The load error node --test relayed for a test file that failed without running tests: the
 * printout in the lines before `end` (the file's result), back to the previous result.
 */
export function nodeTestFileError(lines: readonly string[], end: number, file: string, root: string): TestFailure {
  let start = end;
  while (start > 0 && !isResultLine(lines[start - 1]!)) start--;
  const region = lines.slice(start, end);
  // The printout names the file the error is in: the test file, or a module it imports.
  const headerOf = (l: string) => HEADER.exec(l)?.[1];
  const own = region.findIndex((l) => headerOf(l) !== undefined && relativeTo(headerOf(l)!, root) === file);
  const header = own >= 0 ? own : region.findIndex((l) => headerOf(l) !== undefined && inWorkspace(relativeTo(headerOf(l)!, root), root));
  const from = header >= 0 ? header : region.findIndex((l) => ERROR_LINE.test(l));
  if (from < 0) return { kind: 'load_error', name: file, file, message: 'the test file failed to load (no error was printed)' };
  const failure = nodeLoadError(region.slice(from), file, root);
  return failure.file ? failure : { ...failure, file };
}

/** A line of the spec tree or the TAP stream that ends the previous test's output. */
function isResultLine(line: string): boolean {
  return /^\s*(?:[✔✖﹣▶] |(?:not )?ok \d|\.\.\.\s*$|# Subtest: |1\.\.\d)/.test(line);
}
