// TAP, as node:test writes it (the default reporter when output is not a terminal):
// nested "# Subtest:" names, "not ok N - name" with a YAML block holding location and error.
import { relativeTo, type OutputParser, type TestFailure } from '../test-report.js';

export const tapParser: OutputParser = {
  runner: 'tap',
  detect: (o) => /^TAP version \d+/m.test(o) || (/^# tests \d+/m.test(o) && /^(not )?ok \d+/m.test(o)),
  parse(output, root) {
    const count = (key: string) => Number(new RegExp(`^# ${key} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
    const lines = output.split('\n');
    const names: string[] = [];
    const failures: TestFailure[] = [];
    for (let i = 0; i < lines.length; i++) {
      const sub = /^(\s*)# Subtest: (.*)$/.exec(lines[i]!);
      if (sub) {
        names.length = sub[1]!.length / 4;
        names.push(sub[2]!);
        continue;
      }
      const notOk = /^(\s*)not ok \d+ - (.*?)(?: # (?:TODO|SKIP).*)?$/.exec(lines[i]!);
      if (!notOk) continue;
      const depth = notOk[1]!.length / 4;
      const yaml = yamlBlock(lines, i + 1);
      if (/^\s*type: 'suite'/m.test(yaml) || /failureType: 'subtestsFailed'/.test(yaml)) continue;
      const path = [...names.slice(0, depth), notOk[2]!];
      const loc = /location: '(.+):(\d+):\d+'/.exec(yaml);
      failures.push({
        name: path.join(' > '),
        ...(loc ? { file: relativeTo(loc[1]!, root), line: Number(loc[2]) } : {}),
        message: errorOf(yaml),
      });
    }
    const total = count('tests');
    const hasCounts = /^# (pass|fail) \d+/m.test(output);
    const failed = hasCounts ? count('fail') + count('cancelled') : failures.length;
    return {
      runner: 'tap',
      passed: hasCounts ? count('pass') : Math.max(0, total - failed),
      failed,
      skipped: count('skipped') + count('todo'),
      failures,
    };
  },
};

function yamlBlock(lines: string[], from: number): string {
  if (!/^\s*---\s*$/.test(lines[from] ?? '')) return '';
  const out: string[] = [];
  for (let i = from + 1; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]!); i++) out.push(lines[i]!);
  return out.join('\n');
}

function errorOf(yaml: string): string {
  const inline = /^\s*error: '(.*)'$/m.exec(yaml);
  if (inline) return inline[1]!.replace(/''/g, "'");
  const block = /^([ \t]*)error: \|-?\n((?:\1[ \t]+.*\n?|[ \t]*\n)*)/m.exec(yaml);
  const name = /^\s*name: '?(\w+)'?$/m.exec(yaml)?.[1];
  const text = block
    ? block[2]!
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(0, 8)
        .join('\n')
    : 'failed';
  return name ? `${name}: ${text}` : text;
}
