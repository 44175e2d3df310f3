// cargo test: "test result: FAILED. 1 passed; 2 failed; 1 ignored" per test binary (summed),
// and "---- name stdout ----" blocks with "panicked at src/lib.rs:10:9:" and the message.
import type { OutputParser, TestFailure } from '../test-report.js';

export const cargoParser: OutputParser = {
  runner: 'cargo-test',
  detect: (o) => /^test result: \w+\. \d+ passed/m.test(o),
  parse(output) {
    const sum = (re: RegExp) => [...output.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
    const failures: TestFailure[] = [];
    for (const block of output.split(/^---- /m).slice(1)) {
      const name = /^(\S+) stdout ----/.exec(block)?.[1];
      if (!name) continue;
      const lines = block.split('\n');
      const at = lines.findIndex((l) => /panicked at /.test(l));
      const loc = at >= 0 ? /panicked at (\S+?):(\d+):\d+:?/.exec(lines[at]!) : null;
      const message: string[] = [];
      for (const l of lines.slice(at >= 0 ? at + 1 : 1)) {
        if (/^(stack backtrace:|note: |---- |failures:)/.test(l)) break;
        if (l.trim()) message.push(l.trim());
        if (message.length >= 8) break;
      }
      failures.push({ name, ...(loc ? { file: loc[1], line: Number(loc[2]) } : {}), message: message.join('\n') || 'panicked' });
    }
    return {
      runner: 'cargo-test',
      passed: sum(/^test result: \w+\. (\d+) passed/gm),
      failed: sum(/^test result: .*?; (\d+) failed/gm),
      skipped: sum(/^test result: .*?; (\d+) ignored/gm),
      failures,
    };
  },
};
