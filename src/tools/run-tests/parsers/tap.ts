// TAP, as node:test writes it (the default reporter when output is not a terminal): nested
// "# Subtest:" names, "not ok N - name" with a YAML block holding the error and its stack.
// The location is the stack's first workspace frame; the YAML "location" (where the test is
// declared) only when the stack has none. A test file that fails to load is a "not ok" named by
// its path with error 'test failed'; Node's printout of the error came before it as "# " lines.
import { firstWorkspaceFrame, relativeTo } from '../locate.js';
import { tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';
import { nodeTestFileError } from './node-crash.js';
import { isFileFailure } from './node-test.js';

export const tapParser: OutputParser = {
  runner: 'tap',
  detect: (o) => /^TAP version \d+/m.test(o) || (/^# tests \d+/m.test(o) && /^(not )?ok \d+/m.test(o)),
  parse(output, { root }) {
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
      const yaml = yamlBlock(lines, i + 1);
      if (/^\s*type: 'suite'/m.test(yaml) || /failureType: 'subtestsFailed'/.test(yaml)) continue;
      const name = notOk[2]!;
      if (isFileFailure(name, yamlScalar(yaml, 'error') ?? '')) {
        const diagnostics = lines.map((l) => (l.startsWith('# ') && !l.startsWith('# Subtest: ') ? l.slice(2) : l));
        failures.unshift(nodeTestFileError(diagnostics, i - 1, relativeTo(name, root), root));
        continue;
      }
      failures.push(testFailure([...names.slice(0, notOk[1]!.length / 4), name].join(' > '), yaml, root));
    }
    const loadErrors = failures.filter((f) => f.kind === 'load_error').length;
    const total = count('tests');
    const hasCounts = /^# (pass|fail) \d+/m.test(output);
    const failed = hasCounts ? count('fail') + count('cancelled') - loadErrors : failures.length - loadErrors;
    return {
      runner: 'tap',
      passed: hasCounts ? count('pass') : Math.max(0, total - failed - loadErrors),
      failed,
      skipped: count('skipped') + count('todo'),
      failures,
    };
  },
};

function testFailure(name: string, yaml: string, root: string): TestFailure {
  const stack = blockScalar(yaml, 'stack')?.split('\n') ?? [];
  const declared = /^\s*location: '(.+):(\d+):(\d+)'$/m.exec(yaml);
  const where =
    firstWorkspaceFrame(stack, root) ??
    (declared ? { file: relativeTo(declared[1]!, root), line: Number(declared[2]), column: Number(declared[3]) } : {});
  return { kind: 'test_failure', name, ...where, message: errorOf(yaml) };
}

function yamlBlock(lines: readonly string[], from: number): string {
  if (!/^\s*---\s*$/.test(lines[from] ?? '')) return '';
  const out: string[] = [];
  for (let i = from + 1; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]!); i++) out.push(lines[i]!);
  return out.join('\n');
}

/** A one-line value: `key: 'text'` (quotes doubled inside) or `key: text`. */
function yamlScalar(yaml: string, key: string): string | undefined {
  const m = new RegExp(`^\\s*${key}: (.*)$`, 'm').exec(yaml);
  if (!m || /^\|/.test(m[1]!)) return undefined;
  const v = m[1]!;
  return /^'.*'$/.test(v) ? v.slice(1, -1).replace(/''/g, "'") : v;
}

/** A `key: |-` block, its lines dedented. */
function blockScalar(yaml: string, key: string): string | undefined {
  const m = new RegExp(`^([ \\t]*)${key}: \\|-?\\n((?:\\1[ \\t]+.*\\n?|[ \\t]*\\n)*)`, 'm').exec(yaml);
  if (!m) return undefined;
  const lines = m[2]!.replace(/\n$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

function errorOf(yaml: string): string {
  const text = yamlScalar(yaml, 'error') ?? tidy((blockScalar(yaml, 'error') ?? 'failed').split('\n'));
  const name = /^\s*name: '?(\w+)'?$/m.exec(yaml)?.[1];
  return name ? `${name}: ${text}` : text;
}
