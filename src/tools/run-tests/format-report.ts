// What the model sees of a test run: one summary line, each failure with its location and a
// short message, and a bounded excerpt of the raw output. A 500-test run with 3 failures fits
// in well under 2,000 tokens.
import type { TestFailure, TestReport } from './test-report.js';

const DETAILED_FAILURES = 15;
const LISTED_FAILURES = 50;
const MESSAGE_CHARS = 500;
export const EXCERPT_CHARS = 1500;

export function summaryLine(r: TestReport): string {
  const parts = [`${r.passed} passed`, `${r.failed} failed`];
  if (r.skipped) parts.push(`${r.skipped} skipped`);
  return parts.join(', ');
}

export function formatFailures(failures: readonly TestFailure[]): string {
  if (failures.length === 0) return '';
  const out = ['Failures:'];
  failures.slice(0, DETAILED_FAILURES).forEach((f, i) => {
    out.push(`${i + 1}. ${f.name}${where(f)}`);
    const msg = f.message.length > MESSAGE_CHARS ? `${f.message.slice(0, MESSAGE_CHARS)}…` : f.message;
    if (msg)
      out.push(
        msg
          .split('\n')
          .map((l) => `   ${l}`)
          .join('\n'),
      );
  });
  const listed = failures.slice(DETAILED_FAILURES, LISTED_FAILURES);
  if (listed.length) out.push(`Also failed: ${listed.map((f) => `${f.name}${where(f)}`).join('; ')}`);
  if (failures.length > LISTED_FAILURES) out.push(`… and ${failures.length - LISTED_FAILURES} more failures.`);
  return out.join('\n');
}

function where(f: TestFailure): string {
  return f.file ? ` — ${f.file}${f.line ? `:${f.line}` : ''}` : '';
}

/** The end of the output, where runners print their summaries, cut at a line start. */
export function excerpt(output: string, maxChars = EXCERPT_CHARS): string {
  const trimmed = output.trimEnd();
  if (trimmed.length <= maxChars) return trimmed;
  const cut = trimmed.indexOf('\n', trimmed.length - maxChars);
  return `[… ${cut + 1} earlier characters not shown …]\n${trimmed.slice(cut + 1)}`;
}
