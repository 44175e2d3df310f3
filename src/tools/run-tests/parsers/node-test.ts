// node:test's spec reporter: "ℹ tests 5 / ℹ pass 2 / ℹ fail 2 / ℹ skipped 1", and a closing
// "✖ failing tests:" section of "test at file:line:col" blocks, each with the error and its
// stack. The location is the stack's first workspace frame (the failing line, perhaps in a
// library file), not the line where the test is declared. A test file that fails to load shows
// as a "test" named by its path with the message 'test failed'; Node's own printout of the
// error came earlier, from the file's process.
import { firstWorkspaceFrame, relativeTo } from '../locate.js';
import { JS_FRAME, messageText } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';
import { nodeTestFileError } from './node-crash.js';

export const nodeTestSpecParser: OutputParser = {
  runner: 'node-test',
  detect: (o) => /^ℹ tests \d+/m.test(o),
  parse(output, { root }) {
    const count = (key: string) => Number(new RegExp(`^ℹ ${key} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
    const lines = output.split('\n');
    const sectionAt = lines.findIndex((l) => /^✖ failing tests:\s*$/.test(l));
    const fullNames = failedPaths(lines.slice(0, sectionAt < 0 ? lines.length : sectionAt));
    const failures: TestFailure[] = [];
    for (const block of blocks(sectionAt < 0 ? [] : lines.slice(sectionAt + 1))) {
      const at = /^test at (.+):(\d+):\d+\s*$/.exec(block[0] ?? '');
      const title = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?\s*$/.exec(block[1] ?? '');
      if (!at || !title) continue;
      const rest = block.slice(2);
      if (isFileFailure(title[1]!, messageText(rest).replace(/^'(.*)'$/, '$1'))) {
        const file = relativeTo(title[1]!, root);
        failures.push(nodeTestFileError(lines, resultLine(lines, title[1]!), file, root));
        continue;
      }
      const where = firstWorkspaceFrame(
        rest.filter((l) => JS_FRAME.test(l)),
        root,
      ) ?? {
        file: relativeTo(at[1]!, root),
        line: Number(at[2]),
      };
      failures.push({ kind: 'test_failure', name: fullNames.get(title[1]!) ?? title[1]!, ...where, message: messageText(rest) });
    }
    failures.sort((a, b) => Number(b.kind === 'load_error') - Number(a.kind === 'load_error'));
    const loadErrors = failures.filter((f) => f.kind === 'load_error').length;
    return {
      runner: 'node-test',
      passed: count('pass'),
      failed: count('fail') + count('cancelled') - loadErrors,
      skipped: count('skipped') + count('todo'),
      failures,
    };
  },
};

/** A test file that failed as a whole: node:test names it by its path, with the error 'test failed'. */
export function isFileFailure(name: string, error: string): boolean {
  return /\.[cm]?[jt]sx?$/.test(name) && error === 'test failed';
}

function blocks(lines: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const l of lines) {
    if (/^test at /.test(l)) out.push([]);
    out[out.length - 1]?.push(l);
  }
  return out;
}

/** The file's line in the result tree (before the failing-tests section). */
function resultLine(lines: readonly string[], name: string): number {
  const i = lines.findIndex((l) => l.startsWith(`✖ ${name} (`) || l === `✖ ${name}`);
  return i < 0 ? lines.length : i;
}

/** "suite > test" for each failed test in the result tree, found by indentation. */
function failedPaths(tree: readonly string[]): Map<string, string> {
  const stack: string[] = [];
  const paths = new Map<string, string>();
  for (const line of tree) {
    const m = /^((?: {2})*)(▶|✔|✖|﹣) (.+?)(?: \([\d.]+m?s\))?(?: # \w+.*)?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 2;
    stack.length = depth;
    stack.push(m[3]!);
    if (m[2] === '✖' && !paths.has(m[3]!)) paths.set(m[3]!, stack.join(' > '));
  }
  return paths;
}
