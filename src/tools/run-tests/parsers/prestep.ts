// The steps a test script runs before the tests and that stop it: the TypeScript compiler
// ("src/x.ts(3,9): error TS2322: …", or "src/x.ts:3:9 - error TS2322: …" when pretty), eslint's
// stylish format (a file, then "  2:9  error  message  rule" lines) and xo's ("  file:2:8" then
// "✖  2:8  message  rule"). Each error is a load error at its file:line:column; warnings do not
// stop a script and are left out.
import { relativeTo } from '../locate.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const TSC = /^(\S+\.[cm]?tsx?)(?:\((\d+),(\d+)\):|:(\d+):(\d+) -) error (TS\d+): (.*)$/;
const ESLINT_FILE = /^(\/\S+|[A-Za-z]:\\\S+|\S+\.[cm]?[jt]sx?)$/;
/** The rule id is absent for a parsing error ("Parsing error: Unexpected token ;"). */
const ESLINT_PROBLEM = /^\s+(\d+):(\d+)\s+error\s+(.*?)(?:\s{2,}(\S+))?\s*$/;
const XO_FILE = /^\s+(\S+\.\w+):\d+:\d+$/;
const XO_PROBLEM = /^\s+✖\s+(\d+):(\d+)\s+(.*?)(?:\s{2,}(\S+))?\s*$/;

export const prestepParser: OutputParser = {
  runner: 'tsc',
  detect: (o) => o.split('\n').some((l) => TSC.test(l) || XO_PROBLEM.test(l)) || /^✖ \d+ problems? \(\d+ errors?/m.test(o),
  parse(output, { root }) {
    const lines = output.split('\n');
    const failures: TestFailure[] = [];
    let [eslintFile, xoFile] = ['', ''];
    let runner: 'tsc' | 'eslint' | 'xo' = 'tsc';
    for (const line of lines) {
      const tsc = TSC.exec(line);
      if (tsc) {
        failures.push(at('tsc', tsc[1]!, tsc[2] ?? tsc[4]!, tsc[3] ?? tsc[5]!, `${tsc[6]}: ${tsc[7]}`, root));
        continue;
      }
      const xoProblem = XO_PROBLEM.exec(line);
      if (xoProblem && xoFile) {
        runner = 'xo';
        failures.push(at('xo', xoFile, xoProblem[1]!, xoProblem[2]!, withRule(xoProblem[3]!, xoProblem[4]), root));
        continue;
      }
      const problem = ESLINT_PROBLEM.exec(line);
      if (problem && eslintFile) {
        runner = 'eslint';
        failures.push(at('eslint', eslintFile, problem[1]!, problem[2]!, withRule(problem[3]!, problem[4]), root));
        continue;
      }
      xoFile = XO_FILE.exec(line)?.[1] ?? (line.trim() === '' ? xoFile : '');
      eslintFile = ESLINT_FILE.exec(line)?.[1] ?? (ESLINT_PROBLEM.test(line) || /^\s+\d+:\d+\s+warning/.test(line) ? eslintFile : '');
    }
    return { runner, passed: 0, failed: 0, skipped: 0, failures };
  },
};

const withRule = (message: string, rule: string | undefined) => (rule ? `${message} (${rule})` : message);

function at(tool: string, file: string, line: string, column: string, message: string, root: string): TestFailure {
  const rel = relativeTo(file, root);
  return { kind: 'load_error', name: `${tool}: ${rel}`, file: rel, line: Number(line), column: Number(column), message };
}
