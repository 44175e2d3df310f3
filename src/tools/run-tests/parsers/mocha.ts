// mocha's spec reporter: "N passing / N failing / N pending", then numbered failure blocks
// whose title spans lines until one ending in ":".
import { countsFrom, locationIn, messageOf, type OutputParser, type TestFailure } from '../test-report.js';

export const mochaParser: OutputParser = {
  runner: 'mocha',
  detect: (o) => /^\s+\d+ (passing|failing) ?(\(|$)/m.test(o),
  parse(output, root) {
    const summaryAt = output.search(/^ +\d+ passing/m);
    const tail = summaryAt >= 0 ? output.slice(summaryAt) : output;
    const summary = tail.split('\n').slice(0, 4).join('\n');
    const failures: TestFailure[] = [];
    const blocks = tail.split(/^ {2}(?=\d+\) )/m).slice(1);
    for (const block of blocks) {
      const failure = parseBlock(block, root);
      if (failure) failures.push(failure);
    }
    return { runner: 'mocha', ...countsFrom(summary), failures };
  },
};

function parseBlock(block: string, root: string): TestFailure | undefined {
  const lines = block.split('\n');
  const first = /^\d+\) (.*)$/.exec(lines[0]!);
  if (!first) return undefined;
  const title = [first[1]!.trim()];
  let i = 1;
  while (!title[title.length - 1]!.endsWith(':') && i < lines.length && lines[i]!.trim() !== '') title.push(lines[i++]!.trim());
  const name = title.join(' > ').replace(/:$/, '');
  const rest = lines.slice(i);
  const where = locationIn(rest.filter((l) => /^\s*at /.test(l)).join('\n'), root);
  return { name, ...where, message: messageOf(rest) };
}
