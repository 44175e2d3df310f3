// pytest: FAILURES/ERRORS sections of "____ title ____" blocks (a traceback printed outermost
// first, "path.py:LINE: …" lines and "E   " message lines; a title too long for the line is
// padded with a single "_"), the "short test summary info" FAILED/ERROR lines that name each
// test, and a last line with the counts. "ERROR collecting file.py" and a conftest that fails to
// import are load errors. A SyntaxError names 'File "…", line N' with the source and a caret in
// its message: that is where it is placed, not at the line that imported the file.
import { lastWorkspaceFrame, relativeTo } from '../locate.js';
import { dedent, tidy } from '../message-text.js';
import { countsFrom, type OutputParser, type TestFailure } from '../test-report.js';

interface Block {
  title: string;
  lines: string[];
}

export const pytestParser: OutputParser = {
  runner: 'pytest',
  detect: (o) => /^=+ test session starts =+$/m.test(o) || /^=*\s*(\d+ \w+(, )?)+ in [\d.]+s/m.test(o) || CONFTEST.test(o),
  parse(output, { root }) {
    const conftest = CONFTEST.exec(output);
    if (conftest) return { runner: 'pytest', passed: 0, failed: 0, skipped: 0, failures: [conftestError(output, conftest[1]!, root)] };
    const last = [...output.matchAll(/^.*\d+ \w+.* in [\d.]+s.*$/gm)].pop()?.[0] ?? '';
    const counts = countsFrom(/^=*\s*((?:\d+ \w+(?:, )?)+) in [\d.]+s/m.exec(last)?.[1] ?? '');
    const details = sectionBlocks(output);
    const failures: TestFailure[] = [];
    for (const b of details.filter((d) => /^ERROR collecting /.test(d.title))) failures.push(collectionError(b, root));
    const named = summaryLines(output);
    for (const { file, id } of named) {
      const d = blockOf(details, id);
      failures.push(testFailure(d ? nodeId(d) : id.replace(/ - .*$/, ''), d, relativeTo(file, root), root));
    }
    if (named.length === 0)
      for (const d of details.filter((b) => !/^ERROR collecting /.test(b.title))) failures.push(testFailure(d.title, d, undefined, root));
    const loadErrors = failures.filter((f) => f.kind === 'load_error').length;
    return {
      runner: 'pytest',
      passed: counts.passed,
      failed: counts.failed + Math.max(0, counts.errors - loadErrors),
      skipped: counts.skipped,
      failures,
    };
  },
};

const CONFTEST = /^ImportError while loading conftest '(.+)'\.$/m;

/**
 * The short summary's "FAILED file::test[id] - message" lines. An id may hold spaces, brackets,
 * "::" and " - ", so the test's part runs to the end of the line; blockOf matches it to a title.
 */
function summaryLines(output: string): { file: string; id: string }[] {
  const out: { file: string; id: string }[] = [];
  for (const m of output.matchAll(/^(?:FAILED|ERROR) ([^\s:]+(?:\.py)?)::(.+)$/gm)) out.push({ file: m[1]!, id: m[2]! });
  return out;
}

/** The block whose title is the start of the summary line's test part (a method's "Class.test" is "Class::test" there); the longest such. */
function blockOf(blocks: readonly Block[], line: string): Block | undefined {
  let best: Block | undefined;
  for (const b of blocks) {
    const id = nodeId(b);
    const fits = line === id || line.startsWith(`${id} - `);
    if (fits && (!best || b.title.length > best.title.length)) best = b;
  }
  return best;
}

/** A block title as the summary writes it: "Class.test[id]" is "Class::test[id]". */
function nodeId(b: Block): string {
  const bracket = b.title.indexOf('[');
  const head = bracket < 0 ? b.title : b.title.slice(0, bracket);
  return head.replace(/\./g, '::') + (bracket < 0 ? '' : b.title.slice(bracket));
}

/** "ImportError while loading conftest": the run stopped before collecting; the innermost workspace line. */
function conftestError(output: string, path: string, root: string): TestFailure {
  const lines = output.split('\n');
  const file = relativeTo(path, root);
  const syntax = syntaxError(eLines(lines), root);
  if (syntax) return { kind: 'load_error', name: file, ...syntax };
  const at = where(lines, root);
  return { kind: 'load_error', name: file, file, ...(at ?? {}), message: tidy(eLines(lines)) || 'the conftest could not be imported' };
}

/** The "____ title ____" blocks of the FAILURES and ERRORS sections. */
function sectionBlocks(output: string): Block[] {
  const out: Block[] = [];
  let inSection = false;
  let current: Block | undefined;
  for (const line of output.split('\n')) {
    const heading = /^=+ (.*?) =+$/.exec(line);
    if (heading) {
      inSection = heading[1] === 'FAILURES' || heading[1] === 'ERRORS';
      current = undefined;
      continue;
    }
    // The traceback's own separator is "_ _ _ … _": no title.
    const title = /^_+ (.*?) _+$/.exec(line);
    if (inSection && title && !/^[_ ]*$/.test(title[1]!)) out.push((current = { title: title[1]!, lines: [] }));
    else current?.lines.push(line);
  }
  return out;
}

/** The "E   " lines, without the "E", keeping their alignment. */
function eLines(lines: readonly string[]): string[] {
  return dedent(lines.filter((l) => /^E(?:\s|$)/.test(l)).map((l) => l.slice(1)));
}

/** Traceback entries ("path.py:12: in f" or "path.py:12: ValueError"), innermost in the workspace. */
function where(lines: readonly string[], root: string) {
  return lastWorkspaceFrame(
    lines.filter((l) => /^\S+\.py:\d+: /.test(l)),
    root,
  );
}

function testFailure(name: string, block: Block | undefined, file: string | undefined, root: string): TestFailure {
  const syntax = block && syntaxError(eLines(block.lines), root);
  if (syntax) return { kind: 'test_failure', name, ...syntax };
  const at = block ? where(block.lines, root) : undefined;
  const message = block ? tidy(eLines(block.lines)) : '';
  return { kind: 'test_failure', name, ...(at ?? (file ? { file } : {})), message: message || 'failed' };
}

function collectionError(block: Block, root: string): TestFailure {
  const file = block.title.replace(/^ERROR collecting /, '');
  const e = eLines(block.lines);
  const syntax = syntaxError(e, root);
  const failure: TestFailure = syntax
    ? { kind: 'load_error', name: file, ...syntax }
    : { kind: 'load_error', name: file, file, message: '' };
  if (!syntax) {
    const at = where(block.lines, root);
    if (at?.file === file) failure.line = at.line;
    failure.message = tidy(e);
  }
  if (!failure.message) failure.message = tidy(dedent(block.lines)).split('\n')[0] ?? 'collection failed';
  return failure;
}

/**
 * A SyntaxError in the message lines: 'File "…", line N', the source line and caret, then the
 * error. Python prints the source without its indentation and the caret under that, so the
 * caret's column is not the file's: the context shows it, no column is claimed.
 */
function syntaxError(e: readonly string[], root: string): Pick<TestFailure, 'file' | 'line' | 'context' | 'message'> | undefined {
  const at = e.findIndex((l) => /^\s*File ".*", line \d+/.test(l));
  if (at < 0) return undefined;
  const m = /^\s*File "(.*)", line (\d+)/.exec(e[at]!)!;
  const after = e.slice(at + 1);
  const message = tidy(after.filter((l) => /^\S/.test(l)));
  if (!/^(?:SyntaxError|IndentationError|TabError)\b/.test(message)) return undefined;
  return { file: relativeTo(m[1]!, root), line: Number(m[2]), context: tidy(dedent(after.filter((l) => /^\s/.test(l)))), message };
}
