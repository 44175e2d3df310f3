// vitest's default reporter: " FAIL  file > suite > test" blocks with a message and a
// "❯ file:line:col" location, then "Tests  2 failed | 1 passed | 1 skipped (4)".
import { countsFrom, messageOf, relativeTo, type OutputParser, type TestFailure } from '../test-report.js';

export const vitestParser: OutputParser = {
  runner: 'vitest',
  detect: (o) => /^\s+Tests\s+.*\(\d+\)\s*$/m.test(o) && /^\s+Test Files\s/m.test(o),
  parse(output, root) {
    const summary = /^\s+Tests\s+(.*)$/m.exec(output)?.[1] ?? '';
    const failures: TestFailure[] = [];
    for (const block of output.split(/^ FAIL {1,2}/m).slice(1)) {
      const lines = block.split(/⎯{3,}/)[0]!.split('\n');
      const [file, ...names] = lines[0]!.trim().split(' > ');
      const loc = /❯ (\S+?):(\d+):\d+/.exec(block);
      const rest = lines.slice(1).filter((l) => !/^\s*\d+\|/.test(l) && !/^\s+\|/.test(l) && !/^\s*❯ /.test(l));
      failures.push({
        name: names.length ? names.join(' > ') : file!.replace(/\s*\[.*\]$/, ''),
        file: relativeTo(loc?.[1] ?? file!.replace(/\s*\[.*\]$/, ''), root),
        ...(loc ? { line: Number(loc[2]) } : {}),
        message: messageOf(rest),
      });
    }
    return { runner: 'vitest', ...countsFrom(summary.replace(/\|/g, ',')), failures };
  },
};
