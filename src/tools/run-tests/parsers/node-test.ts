// node:test's spec reporter: "ℹ tests 5 / ℹ pass 2 / ℹ fail 2 / ℹ skipped 1", and a closing
// "✖ failing tests:" section of "test at file:line:col" blocks.
import { locationIn, messageOf, relativeTo, type OutputParser, type TestFailure } from '../test-report.js';

export const nodeTestSpecParser: OutputParser = {
  runner: 'node-test',
  detect: (o) => /^ℹ tests \d+/m.test(o),
  parse(output, root) {
    const count = (key: string) => Number(new RegExp(`^ℹ ${key} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
    const failures: TestFailure[] = [];
    const fullNames = failedPaths(output);
    const section = output.split(/^✖ failing tests:\s*$/m)[1] ?? '';
    for (const block of section.split(/^(?=test at )/m)) {
      const lines = block.split('\n');
      const at = /^test at (.+):(\d+):\d+\s*$/.exec(lines[0] ?? '');
      const title = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?\s*$/.exec(lines[1] ?? '');
      if (!at || !title) continue;
      const rest = lines.slice(2);
      const frame = locationIn(rest.filter((l) => /^\s*at /.test(l)).join('\n'), root);
      failures.push({
        name: fullNames.get(title[1]!) ?? title[1]!,
        file: relativeTo(at[1]!, root),
        line: frame?.line ?? Number(at[2]),
        message: messageOf(rest),
      });
    }
    return {
      runner: 'node-test',
      passed: count('pass'),
      failed: count('fail') + count('cancelled'),
      skipped: count('skipped') + count('todo'),
      failures,
    };
  },
};

/** "suite > test" for each failed test in the result tree, found by indentation. */
function failedPaths(output: string): Map<string, string> {
  const tree = output.split(/^ℹ tests \d+/m)[0]!;
  const stack: string[] = [];
  const paths = new Map<string, string>();
  for (const line of tree.split('\n')) {
    const m = /^((?:  )*)(▶|✔|✖|﹣) (.+?)(?: \([\d.]+m?s\))?(?: # \w+.*)?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 2;
    stack.length = depth;
    stack.push(m[3]!);
    if (m[2] === '✖' && !paths.has(m[3]!)) paths.set(m[3]!, stack.join(' > '));
  }
  return paths;
}
