// jest's default reporter: "● suite › test" blocks with a message, a code frame and a stack,
// then "Tests: 2 failed, 1 skipped, 1 passed, 4 total".
import { countsFrom, locationIn, messageOf, type OutputParser, type TestFailure } from '../test-report.js';

export const jestParser: OutputParser = {
  runner: 'jest',
  detect: (o) => /^Tests:\s+.*\d+ total/m.test(o),
  parse(output, root) {
    const summary = /^Tests:\s+(.*)$/m.exec(output)?.[1] ?? '';
    const failures: TestFailure[] = [];
    const seen = new Set<string>();
    const body = output.split(/^Summary of all failing tests$/m)[0]!;
    for (const block of body.split(/^\s*● /m).slice(1)) {
      const lines = block.split('\n');
      const name = lines[0]!.trim().replace(/ › /g, ' > ');
      if (seen.has(name)) continue;
      seen.add(name);
      const rest = lines
        .slice(1)
        .filter((l) => !/^\s*>?\s*\d+ \|/.test(l) && !/^\s+\|/.test(l) && !/^(Test Suites|Tests|Snapshots|Time):/.test(l));
      const where = locationIn(rest.filter((l) => /^\s*at /.test(l)).join('\n'), root);
      failures.push({ name, ...where, message: messageOf(rest) });
    }
    return { runner: 'jest', ...countsFrom(summary), failures };
  },
};
