// go test (-v or not): "--- FAIL: TestX (0.00s)" results, "    x_test.go:13: message" lines
// attributed to the test that was running, and build errors before any test.
import type { OutputParser, TestFailure } from '../test-report.js';

interface GoTest {
  status?: 'PASS' | 'FAIL' | 'SKIP';
  file?: string;
  line?: number;
  messages: string[];
}

export const goTestParser: OutputParser = {
  runner: 'go-test',
  detect: (o) => /^\s*--- (PASS|FAIL|SKIP): \S+ \(/m.test(o) || /^(ok|FAIL)\s+\S+\s+[\d.]+s/m.test(o),
  parse(output) {
    const tests = new Map<string, GoTest>();
    const get = (name: string) => tests.get(name) ?? tests.set(name, { messages: [] }).get(name)!;
    const buildErrors: TestFailure[] = [];
    let current: string | undefined;
    for (const line of output.split('\n')) {
      const run = /^=== (?:RUN|CONT|NAME|PAUSE)\s+(\S+)/.exec(line);
      const result = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/.exec(line);
      const msg = /^\s+(\S+\.go):(\d+): (.*)$/.exec(line);
      const build = /^(\S+\.go):(\d+):\d+: (.*)$/.exec(line);
      if (run) current = run[1];
      else if (result) {
        get(result[2]!).status = result[1] as GoTest['status'];
        current = result[2];
      } else if (msg && current) {
        const t = get(current);
        if (!t.file) [t.file, t.line] = [msg[1], Number(msg[2])];
        t.messages.push(msg[3]!);
      } else if (build && !current) buildErrors.push({ name: 'build', file: build[1], line: Number(build[2]), message: build[3]! });
      else if (/^panic: /.test(line) && current) get(current).messages.push(line);
    }
    // A parent fails when a subtest fails: count and report the leaves only.
    const names = [...tests.keys()];
    const leaves = names.filter((n) => !names.some((m) => m.startsWith(n + '/')));
    const count = (s: GoTest['status']) => leaves.filter((n) => tests.get(n)!.status === s).length;
    const failures = leaves
      .filter((n) => tests.get(n)!.status === 'FAIL')
      .map((n): TestFailure => {
        const t = tests.get(n)!;
        return { name: n, ...(t.file ? { file: t.file, line: t.line } : {}), message: t.messages.slice(0, 8).join('\n') || 'failed' };
      });
    return {
      runner: 'go-test',
      passed: count('PASS'),
      failed: count('FAIL') + buildErrors.length,
      skipped: count('SKIP'),
      failures: [...buildErrors, ...failures],
    };
  },
};
