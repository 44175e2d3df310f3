// The size of run_tests' reports against their 2,000-token budget: every captured real-runner
// output (test/fixtures/runner-output), and a worst case of 60 failures with 3,000-character
// messages. Run: node --import=tsx bench/run-tests-reports.ts
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { estimateTokens } from '../src/kernel/index.js';
import { formatReport } from '../src/tools/run-tests/format-report.js';
import { parseTestOutput } from '../src/tools/run-tests/parse-output.js';
import type { ParseContext, TestReport } from '../src/tools/run-tests/test-report.js';
import { median, writeResults } from './report.js';

const BUDGET_TOKENS = 2000;
const REPORT_CHARS = BUDGET_TOKENS * 4 - 200;
const dir = path.resolve(__dirname, '../test/fixtures/runner-output');
const index: Record<string, ParseContext & { command: string }> = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));

const sizes: Record<string, number> = {};
for (const [file, meta] of Object.entries(index)) {
  const output = readFileSync(path.join(dir, file), 'utf8');
  const report = parseTestOutput(output, meta);
  if (!report) throw new Error(`${file} was not recognised`);
  sizes[file] = estimateTokens(formatReport(`$ ${meta.command}\n[exit code 1]`, report, output, REPORT_CHARS));
}

const message = Array.from({ length: 60 }, (_, i) => `- expected line ${i}\n+ received line ${i} with more text`).join('\n');
const worst: TestReport = {
  runner: 'jest',
  passed: 440,
  failed: 60,
  skipped: 0,
  failures: Array.from({ length: 60 }, (_, i) => ({
    kind: 'test_failure',
    name: `suite > case ${i}`,
    file: 'test/a.test.js',
    line: i + 1,
    message,
  })),
};
const worstTokens = estimateTokens(formatReport('$ npx jest\n[exit code 1]', worst, 'x'.repeat(100) + '\n'.repeat(5000), REPORT_CHARS));

const values = Object.values(sizes);
const results = {
  budgetTokens: BUDGET_TOKENS,
  fixtures: values.length,
  medianTokens: median(values),
  maxTokens: Math.max(...values),
  worstCase60FailuresTokens: worstTokens,
  perFixture: sizes,
  loadAverage: os.loadavg()[0],
};
for (const [file, tokens] of Object.entries(sizes)) console.log(`${file.padEnd(44)} ${String(tokens).padStart(5)} tokens`);
console.log(`median ${results.medianTokens}, max ${results.maxTokens}, worst case (60 long failures) ${worstTokens} of ${BUDGET_TOKENS}`);
console.log(`wrote ${writeResults('run-tests-reports', results)}`);
