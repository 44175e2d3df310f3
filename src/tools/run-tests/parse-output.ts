// Picks the parser whose signature the output carries. Order matters: the more specific
// formats (jest, vitest) come before the ones their output could also resemble. A task runner's
// output is first split by package (task-prefixes.ts) and a chained script's by run
// (chained-runs.ts): each piece is parsed alone and the reports are added up (merge-runs.ts).
// Load errors with one cause (a module many test files import) are then merged into one.
import { splitRuns } from './chained-runs.js';
import { mergeLoadErrors } from './merge-load-errors.js';
import { mergeReports } from './merge-runs.js';
import { avaParser } from './parsers/ava.js';
import { bunParser } from './parsers/bun.js';
import { cargoParser } from './parsers/cargo.js';
import { catch2Parser } from './parsers/catch2.js';
import { compilerParser } from './parsers/compilers.js';
import { crashParser } from './parsers/crash.js';
import { ctestParser } from './parsers/ctest.js';
import { denoParser } from './parsers/deno.js';
import { goTestParser } from './parsers/go-test.js';
import { gtestParser } from './parsers/gtest.js';
import { jasmineParser } from './parsers/jasmine.js';
import { jestParser } from './parsers/jest.js';
import { mochaParser } from './parsers/mocha.js';
import { nodeTapParser } from './parsers/node-tap.js';
import { nodeTestSpecParser } from './parsers/node-test.js';
import { prestepParser } from './parsers/prestep.js';
import { pytestParser } from './parsers/pytest.js';
import { tapParser } from './parsers/tap.js';
import { unittestParser } from './parsers/unittest.js';
import { uvuParser } from './parsers/uvu.js';
import { vitestParser } from './parsers/vitest.js';
import { splitByPackage } from './task-prefixes.js';
import { stripAnsi, type OutputParser, type ParseContext, type TestFailure, type TestReport } from './test-report.js';

const PARSERS: readonly OutputParser[] = [
  jestParser,
  vitestParser,
  bunParser,
  denoParser,
  avaParser,
  uvuParser,
  jasmineParser,
  mochaParser,
  nodeTestSpecParser,
  nodeTapParser,
  tapParser,
  pytestParser,
  unittestParser,
  cargoParser,
  goTestParser,
  // CTest before the frameworks whose output it shows for a failed test.
  ctestParser,
  gtestParser,
  catch2Parser,
  // Last: a compiler's or linter's errors count only when no runner's output is there.
  prestepParser,
  compilerParser,
  crashParser,
];

/** Bounds what a report keeps of one message (it is stored with the observation); the report shows less. */
const STORED_TEXT_CHARS = 8000;

export function parseTestOutput(output: string, ctx: ParseContext = { root: '' }): TestReport | undefined {
  const clean = stripAnsi(output).replace(/\r\n/g, '\n');
  const runs = splitByPackage(clean).flatMap((p) => splitRuns(p.text).map((text) => ({ package: p.package, text })));
  const reports = runs.flatMap((run) => {
    const report = parseRun(run.text, ctx);
    return report ? [{ report, package: run.package }] : [];
  });
  const report = mergeReports(reports);
  return report && { ...report, failures: mergeLoadErrors(report.failures.map((f) => withUnplaced(tidied(f, ctx.root)))) };
}

function parseRun(text: string, ctx: ParseContext): TestReport | undefined {
  const parser = PARSERS.find((p) => p.detect(text));
  return parser?.parse(text, ctx);
}

/** V8's syntax-error message, as Node prints it ("SyntaxError: …") or mocha ("SyntaxError[ @file ]: …"). */
const V8_SYNTAX_ERROR = /\bSyntaxError(?:\[[^\]\n]*\])?: (.+)$/m;

/** A load error without a line whose message is a syntax error: marked for locate-syntax-error.ts. */
function withUnplaced(f: TestFailure): TestFailure {
  if (f.kind !== 'load_error' || f.line !== undefined || f.unplaced) return f;
  const message = V8_SYNTAX_ERROR.exec(f.message)?.[1]?.trim();
  return message ? { ...f, unplaced: { type: 'v8_message', message } } : f;
}

/** Paths inside messages made relative like the locations (shorter, and the same names); text bounded. */
function tidied(f: TestFailure, root: string): TestFailure {
  const base = root.replace(/\/+$/, '');
  const relative = (s: string) => (base ? s.split(`file://${base}/`).join('').split(`${base}/`).join('') : s);
  const cap = (s: string) =>
    s.length > STORED_TEXT_CHARS ? `${s.slice(0, STORED_TEXT_CHARS)}\n[… ${s.length - STORED_TEXT_CHARS} more characters]` : s;
  const text = (s: string) => cap(relative(s));
  return { ...f, message: text(f.message), ...(f.context !== undefined ? { context: text(f.context) } : {}) };
}
