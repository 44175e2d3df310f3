// The round-2 proof's report (issue 20 item 5): every generated line (or a seeded sample) that
// `keel run --approve execute` would run unasked, run outside the sandbox under strace and inside
// it; prints the lines with effects and the counts.
//
//   npm run proof:sandbox                     # every generated line
//   npm run proof:sandbox -- --sample 20      # a seeded sample of 20 lines a category
//   npm run proof:sandbox -- --json out.json  # also the results as JSON
import * as fs from 'node:fs';
import { generateRound2, sampleRound2 } from './generate-round2.js';
import { proveRound2, type Round2Result, summarizeRound2 } from './prove-round2.js';
import { findTracer } from './trace-line.js';

export const ROUND2_WORKERS = 2;
export const ROUND2_TIMEOUT_MS = 20_000;

export function describeRound2(results: readonly Round2Result[], ms: number): string {
  const s = summarizeRound2(results);
  const rows = Object.entries(s.byCategory).map(
    ([c, n]) =>
      `  ${c.padEnd(13)} generated ${String(n.generated).padStart(5)}  run unasked ${String(n.ran).padStart(4)}  effects outside ${String(n.outside).padStart(4)}  inside ${n.inside}`,
  );
  return [
    `round-2 proof: ${s.generated} lines generated, ${s.ranUnasked} run unasked; effects outside the sandbox in ${s.effectsOutside}, inside it in ${s.effectsInside} (${(ms / 1000).toFixed(1)} s)`,
    ...rows,
  ].join('\n');
}

export function describeEffects(r: Round2Result): string {
  const lines = [`  [${r.line.category}, ${r.line.workspace}, ${r.profile}] ${JSON.stringify(r.line.text.slice(0, 160))}`];
  for (const v of [...new Set(r.outside.map((x) => `${x.kind}: ${x.detail}`))].slice(0, 4)) lines.push(`    outside ${v}`);
  for (const e of r.inside.slice(0, 4)) lines.push(`    INSIDE ${e}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const tracer = findTracer();
  if ('missing' in tracer) {
    console.error(tracer.missing);
    process.exit(1);
  }
  const all = generateRound2();
  const sample = at('--sample');
  const lines = sample ? sampleRound2(all, Number(sample)) : all;
  const started = Date.now();
  const results = await proveRound2(tracer, lines, { workers: ROUND2_WORKERS, timeoutMs: ROUND2_TIMEOUT_MS });
  for (const r of results) if (r.outside.length || r.inside.length) console.log(describeEffects(r));
  console.log(describeRound2(results, Date.now() - started));
  const json = at('--json');
  if (json) fs.writeFileSync(json, JSON.stringify(results, null, 1));
}

if (require.main === module) void main();
