// node-tap (the `tap` package, TAP 14): each test file a "# Subtest: test/x.js" whose tests are
// nested subtests; a failed assertion is a "not ok" with no subtest of its own, its YAML giving
// `at:` (fileName, lineNumber, columnNumber), the stack and a diff; the lines "not ok N - name"
// that close a subtest only repeat it. "# { total: 5, pass: 3, fail: 2 }" ends the run. A file
// that cannot load closes with no tests ("1..0") after Node's printout of the error.
import { relativeTo } from '../locate.js';
import { dedent, tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';
import { nodeTestFileError } from './node-crash.js';

const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const NOT_OK = /^(\s*)not ok \d+ - (.*?)(?: # (?:time=[\d.]+m?s|TODO.*|SKIP.*))?$/;

export const nodeTapParser: OutputParser = {
  runner: 'node-tap',
  detect: (o) => /^TAP version 14$/m.test(o) && /^# \{ total: \d+/m.test(o),
  parse(output, { root }) {
    const totals = /^# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?(?:, skip: (\d+))?(?:, todo: (\d+))?/m.exec(output);
    const [total, pass, fail, skip, todo] = [1, 2, 3, 4, 5].map((k) => Number(totals?.[k] ?? 0));
    const lines = output.split('\n');
    const names: string[] = [];
    const opened = new Set<string>();
    const failures: TestFailure[] = [];
    const failedTests = new Set<string>();
    for (let i = 0; i < lines.length; i++) {
      const sub = SUBTEST.exec(lines[i]!);
      if (sub) {
        names.length = sub[1]!.length / 4;
        names.push(sub[2]!);
        opened.add(`${sub[1]!.length}:${sub[2]}`);
        continue;
      }
      const notOk = NOT_OK.exec(lines[i]!);
      if (!notOk) continue;
      const depth = notOk[1]!.length / 4;
      const yaml = yamlOf(lines, i + 1);
      if (opened.has(`${notOk[1]!.length}:${notOk[2]}`)) {
        // A subtest closing: a test file with no test inside failed to load.
        if (depth === 0 && /^\s+1\.\.0 # no tests found/m.test(lines.slice(Math.max(0, i - 3), i).join('\n'))) {
          const start = lines.findLastIndex((l, k) => k < i && SUBTEST.test(l) && l.endsWith(notOk[2]!));
          failures.unshift(nodeTestFileError(lines, start, relativeTo(notOk[2]!, root), root));
        }
        continue;
      }
      const test = names.slice(0, depth).join(' > ');
      failedTests.add(test);
      failures.push(assertion(test, notOk[2]!, yaml, root));
    }
    const loadErrors = failures.filter((f) => f.kind === 'load_error').length;
    return {
      runner: 'node-tap',
      passed: pass ?? Math.max(0, total! - fail!),
      failed: Math.max(failedTests.size, fail! - loadErrors),
      skipped: skip! + todo!,
      failures,
    };
  },
};

function yamlOf(lines: readonly string[], from: number): string[] {
  if (!/^\s*---\s*$/.test(lines[from] ?? '')) return [];
  const out: string[] = [];
  for (let i = from + 1; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]!); i++) out.push(lines[i]!);
  return out;
}

function assertion(test: string, message: string, yaml: readonly string[], root: string): TestFailure {
  const text = yaml.join('\n');
  const file = /^\s+fileName: (.+)$/m.exec(text)?.[1];
  const line = /^\s+lineNumber: (\d+)$/m.exec(text)?.[1];
  const column = /^\s+columnNumber: (\d+)$/m.exec(text)?.[1];
  const at = file && line ? { file: relativeTo(file, root), line: Number(line), ...(column ? { column: Number(column) } : {}) } : {};
  const diffAt = yaml.findIndex((l) => /^\s+diff: \|/.test(l));
  const diff = diffAt < 0 ? [] : blockLines(yaml, diffAt);
  return { kind: 'test_failure', name: test, ...at, message: tidy([message, ...(diff.length ? ['', ...dedent(diff)] : [])]) };
}

/** The indented lines of a YAML block scalar starting at `at`. */
function blockLines(yaml: readonly string[], at: number): string[] {
  const indent = /^\s*/.exec(yaml[at]!)![0].length;
  const out: string[] = [];
  for (let i = at + 1; i < yaml.length && (/^\s*$/.test(yaml[i]!) || /^\s*/.exec(yaml[i]!)![0].length > indent); i++) out.push(yaml[i]!);
  return out;
}
