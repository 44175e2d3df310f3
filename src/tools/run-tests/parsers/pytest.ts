// pytest: the "short test summary info" FAILED/ERROR lines give names and messages; the
// FAILURES section gives "file.py:LINE: ErrorType" and the "E " lines; the last line counts.
import { countsFrom, type OutputParser, type TestFailure } from '../test-report.js';

export const pytestParser: OutputParser = {
  runner: 'pytest',
  detect: (o) => /^=+ test session starts =+$/m.test(o) || /^=*\s*(\d+ \w+(, )?)+ in [\d.]+s/m.test(o),
  parse(output) {
    const summary =
      /^=*\s*((?:\d+ \w+(?:, )?)+) in [\d.]+s/m.exec([...output.matchAll(/^.*\d+ \w+.* in [\d.]+s.*$/gm)].pop()?.[0] ?? '')?.[1] ?? '';
    const details = failureDetails(output);
    const failures: TestFailure[] = [];
    for (const m of output.matchAll(/^(FAILED|ERROR) (\S+?)(?: - (.*))?$/gm)) {
      const [file, ...parts] = m[2]!.split('::');
      const name = parts.length ? parts.join('::') : file!;
      const d = details.get(parts.join('.')) ?? details.get(parts[parts.length - 1] ?? '');
      failures.push({ name, file: d?.file ?? file, ...(d?.line ? { line: d.line } : {}), message: d?.message || m[3] || m[1]! });
    }
    return { runner: 'pytest', ...countsFrom(summary), failures };
  },
};

function failureDetails(output: string): Map<string, { file?: string; line?: number; message: string }> {
  const map = new Map<string, { file?: string; line?: number; message: string }>();
  const section =
    output
      .split(/^=+ (?:FAILURES|ERRORS) =+$/m)
      .slice(1)
      .join('\n')
      .split(/^=+ short test summary info =+$/m)[0] ?? '';
  for (const block of section.split(/^_{3,} (?=.* _{3,}$)/m).slice(1)) {
    const lines = block.split('\n');
    const title = lines[0]!.replace(/ _+$/, '').trim();
    const locs = [...block.matchAll(/^(\S+\.py):(\d+): \w+/gm)];
    const loc = locs[locs.length - 1];
    const message = lines
      .filter((l) => l.startsWith('E '))
      .map((l) => l.slice(1).trim())
      .slice(0, 8)
      .join('\n');
    map.set(title, { ...(loc ? { file: loc[1], line: Number(loc[2]) } : {}), message });
  }
  return map;
}
