// Context folding and the prompt cache, graded honestly (issues 10 and 22): the 30-turn task shape
// played by a stand-in model over the Anthropic wire format, through the real adapter, the kernel
// and the real tools on a generated workspace, at 200k, 42k and 8k windows. Keel's requests are
// billed as Anthropic would bill them (cache read 10%, write 125% of input). The yardstick comes
// from the task alone (bench/context/yardstick.ts): the ideal is the full, never-folded history
// with a perfect cache, the naive that history resent uncached. blindEdits counts edits whose
// search text was nowhere in the request that made them. Two deliberately bad layouts (folding
// before every turn; a system prompt that changes every request) are graded on the same yardstick.
// Run: npm run bench:context  →  bench/results/context.json
import * as os from 'node:os';
import { goalBytes, prefixBroken } from './context/billing.js';
import { play, MODEL, type Played } from './context/play.js';
import { round, writeResults } from './report.js';

function figures(run: Played) {
  const turns = run.sent.filter((s) => s.kind === 'turn' && !s.refused);
  const breaks = run.sent.filter((s, i) => i > 0 && prefixBroken(run.sent[i - 1]!.body, s.body)).length;
  return {
    ratio: round(run.cost / run.yardstick.ideal),
    naiveRatio: round(run.cost / run.yardstick.naive),
    turns: turns.length,
    notes: run.sent.filter((s) => s.kind === 'note').length,
    refused: run.sent.filter((s) => s.refused).length,
    folds: run.events.filter((e) => e.type === 'context_folded').length,
    breaks,
    largest: Math.max(...turns.map((s) => s.blocks.reduce((n, b) => n + b.tokens, 0))),
    goalStable: new Set(run.sent.map((s) => goalBytes(s.body))).size === 1,
  };
}

function describe(run: Played): string {
  const f = figures(run);
  return (
    `${run.layout} @ ${run.window / 1000}k: ${f.turns} turns + ${f.notes} note requests (${f.refused} refused over the window), ` +
    `${f.folds} folds, ${f.breaks} prefix breaks, largest request ${f.largest} tokens (budget ${run.budgetTokens}), ` +
    `cost $${run.cost.toFixed(3)} = ${f.ratio} × ideal $${run.yardstick.ideal.toFixed(3)} (naive $${run.yardstick.naive.toFixed(3)}), ` +
    `${run.model.blindEdits} blind edits, ${run.model.addedReads} reads added before edits, ${run.status}, tests ${run.testsPass ? 'pass' : 'FAIL'}`
  );
}

async function main(): Promise<void> {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`context bench: ${MODEL} prices, load average ${load}`);
  const at200 = await play(200_000);
  const at42 = await play(42_000);
  const at8 = await play(8_000);
  const foldEvery = await play(42_000, 'fold-every-turn');
  const changing = await play(200_000, 'changing-system');
  for (const run of [at200, at42, at8, foldEvery, changing]) console.log(`  ${describe(run)}`);
  const [f200, f42, f8] = [figures(at200), figures(at42), figures(at8)];
  const results = {
    costRatioToIdeal200k: f200.ratio,
    costRatioToIdeal42k: f42.ratio,
    costRatioToIdeal8k: f8.ratio,
    costRatioToNaive200k: f200.naiveRatio,
    blindEdits200k: at200.model.blindEdits,
    blindEdits42k: at42.model.blindEdits,
    blindEdits8k: at8.model.blindEdits,
    completed: [at200, at42, at8].every((r) => r.status === 'completed' && r.testsPass),
    badLayoutFoldEveryTurn42k: figures(foldEvery).ratio,
    badLayoutChangingSystem200k: figures(changing).ratio,
    prefixBreaks200k: f200.breaks,
    prefixBreaks42k: f42.breaks,
    folds200k: f200.folds,
    folds42k: f42.folds,
    folds8k: f8.folds,
    refusedOverWindow: f200.refused + f42.refused + f8.refused,
    goalBytesStable: f200.goalStable && f42.goalStable && f8.goalStable,
    addedReads42k: at42.model.addedReads,
    costUsd200k: round(at200.cost, 4),
    idealCostUsd200k: round(at200.yardstick.ideal, 4),
    naiveCostUsd200k: round(at200.yardstick.naive, 4),
    costUsd42k: round(at42.cost, 4),
    costUsd8k: round(at8.cost, 4),
    loadAverage: load,
  };
  const checks = [
    results.costRatioToIdeal200k <= 1.1,
    results.costRatioToIdeal42k <= 1.1,
    results.blindEdits200k + results.blindEdits42k + results.blindEdits8k === 0,
    results.completed,
    results.badLayoutFoldEveryTurn42k > results.costRatioToIdeal42k,
    results.badLayoutChangingSystem200k > results.costRatioToIdeal200k,
    results.goalBytesStable,
  ];
  console.log(JSON.stringify(results, null, 2));
  console.log(`  targets ${checks.every(Boolean) ? 'met' : 'NOT met'}; written to ${writeResults('context', results)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
