// Runs the differential proof on the whole corpus (or on the lines given as arguments) and
// prints every line that did more than the classifier allowed, for people hunting bypasses:
//
//   node --import=tsx test/support/shell-proof/report.ts                 # the corpus
//   node --import=tsx test/support/shell-proof/report.ts 'ls' 'cat x'    # these lines
//   node --import=tsx test/support/shell-proof/report.ts --json out.json # also as JSON
import * as fs from 'node:fs';
import { loadCorpus, type CorpusLine } from './corpus.js';
import { proveCorpus, summarize, type LineResult } from './prove.js';
import { findTracer } from './trace-line.js';

export const PROOF_WORKERS = 2;
export const LINE_TIMEOUT_MS = 10_000;

const SHOWN_VIOLATIONS = 6;

export function describeFailure(r: LineResult): string {
  const programs = r.classified.programs ? ` programs=${JSON.stringify(r.classified.programs)}` : '';
  const lines = [...new Set(r.violations.map((v) => `    ${v.kind}: ${v.detail}`))];
  const more = lines.length > SHOWN_VIOLATIONS ? `\n    …and ${lines.length - SHOWN_VIOLATIONS} more` : '';
  return `  ${r.line.where}: ${JSON.stringify(r.line.text)}${programs}\n${lines.slice(0, SHOWN_VIOLATIONS).join('\n')}${more}`;
}

export function describeSummary(results: readonly LineResult[], ms: number): string {
  const s = summarize(results);
  const types = Object.entries(s.byType)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  return (
    `shell proof: ${s.corpus} corpus lines (${types}); ${s.readOnly} classified read_only, ` +
    `${s.refusedByPolicy} of them refused by the policy, ${s.ran} run under strace, ${s.clean} ran cleanly (${(ms / 1000).toFixed(1)} s)`
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
  const tracer = findTracer();
  if ('missing' in tracer) {
    console.error(tracer.missing);
    process.exit(1);
  }
  const lines: CorpusLine[] = args.length ? args.map((text, i) => ({ where: `arg ${i + 1}`, text })) : loadCorpus();
  const started = Date.now();
  const results = await proveCorpus(tracer, lines, { workers: PROOF_WORKERS, timeoutMs: LINE_TIMEOUT_MS });
  for (const r of results) if (r.violations.length) console.log(describeFailure(r));
  console.log(describeSummary(results, Date.now() - started));
  if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(results, null, 1));
}

if (require.main === module) void main();
