// Context folding and the prompt cache (issue 10): the 30-turn task shape played by a
// deterministic stand-in model over the Anthropic wire format, through the real adapter, the
// kernel and the real tools on a generated workspace, at a 200k and a 42k window. Every request
// is billed as Anthropic would bill it (cache read 10%, write 125% of input) and compared with
// an agent that folds at the same points and caches perfectly, and with resending everything
// uncached. Run: npm run bench:context  →  bench/results/context.json
import * as fs from 'node:fs';
import * as os from 'node:os';
import { Runtime, type ModelProvider, type ModelRequest, type RuntimeEvent, fixedTokens } from '../src/kernel/index.js';
import { createAnthropicProvider, priceOf } from '../src/providers/index.js';
import { composeRegistry } from '../src/compose/index.js';
import { createPolicy, searchByWalking } from '../src/tools/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { startModelServer } from '../test/support/model-server.js';
import { anthropicSse } from '../test/support/anthropic-wire.js';
import { blocksOf, CacheSimulator, costOfBill, goalBytes, idealBill, prefixBroken, uncachedBill, type Block } from './context/billing.js';
import { StandInModel, OUTSIDE_EDIT, type WireBody } from './context/task.js';
import { createWorkspace, editOutside } from './context/workspace.js';
import { round, writeResults } from './report.js';

/** Priced like Sonnet 4.5 ($3 / $15, cache read $0.30, write $3.75); its window is set per run. */
const MODEL = 'claude-sonnet-4-6';
const PRICE = priceOf(MODEL)!;

interface Sent {
  body: WireBody;
  blocks: Block[];
  kind: 'turn' | 'note';
  outputTokens: number;
}

interface Played {
  sent: Sent[];
  events: RuntimeEvent[];
  model: StandInModel;
  budgetTokens: number;
  /** What Keel itself counted (the stand-in reports the simulated bill as usage). */
  keelUsageCost: number;
  status: string;
}

/** One run of the task at a window; `onNeed` plays the re-read-on-need variant. */
async function play(window: number, onNeed = false): Promise<Played> {
  const root = createWorkspace();
  const model = new StandInModel(onNeed, (turn) => {
    if (turn === OUTSIDE_EDIT.beforeTurn) editOutside(root, OUTSIDE_EDIT.file);
  });
  const sim = new CacheSimulator();
  const sent: Sent[] = [];
  let fixed = 0;
  const server = await startModelServer((req) => {
    const body = req.body as WireBody;
    const reply = model.reply(body);
    const blocks = blocksOf(req.body, fixed);
    const bill = sim.bill(blocks);
    sent.push({ body, blocks, kind: reply.kind, outputTokens: reply.outputTokens });
    const usage = { input: bill.input, cacheRead: bill.cacheRead, cacheWrite: bill.cacheWrite, output: reply.outputTokens };
    return { type: 'stream', body: anthropicSse({ ...reply.turn, usage, model: MODEL }) };
  });
  try {
    const inner = createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: 'bench', model: MODEL, contextWindow: window });
    // The kernel's own weight of system + tools, for the billing's first block.
    const provider: ModelProvider = {
      ...inner,
      name: inner.name,
      model: inner.model,
      capabilities: inner.capabilities,
      stream(request: ModelRequest, signal: AbortSignal) {
        fixed = fixedTokens(request.system, request.tools);
        return inner.stream(request, signal);
      },
    };
    const workspace = await createNodeWorkspace(root, { fallbackSearch: searchByWalking });
    const runtime = new Runtime({
      provider,
      registry: composeRegistry(workspace),
      workspace,
      policy: createPolicy({ autoApprove: ['read', 'write', 'execute', 'network'], approveUnclassified: true }),
      maxTurns: 60,
      visibility: { trusted: true, hasDiagnostics: false },
    });
    for await (const _ of runtime.send('Find out why the shop totals are off by a cent and fix it; the tests must pass.')) {
      // drained: the stand-in records every request
    }
    const state = runtime.getState();
    return {
      sent,
      events: runtime.getEvents() as RuntimeEvent[],
      model,
      budgetTokens: inner.capabilities.contextWindow - inner.capabilities.maxOutputTokens,
      keelUsageCost: state.usage.costUsd ?? 0,
      status: state.status,
    };
  } finally {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function figures(run: Played) {
  const sim = new CacheSimulator();
  let keel = 0;
  let ideal = 0;
  const breaks: number[] = [];
  const goals = new Set<string>();
  run.sent.forEach((s, i) => {
    const before = run.sent[i - 1];
    keel += costOfBill(sim.bill(s.blocks), s.outputTokens, PRICE);
    ideal += costOfBill(idealBill(before?.blocks, s.blocks), s.outputTokens, PRICE);
    if (prefixBroken(before?.body, s.body)) breaks.push(i + 1);
    goals.add(goalBytes(s.body));
  });
  const folds = run.events.filter((e) => e.type === 'context_folded').length;
  const tokens = run.sent.filter((s) => s.kind === 'turn').map((s) => s.blocks.reduce((n, b) => n + b.tokens, 0));
  return {
    keel,
    ideal,
    breaks: breaks.length,
    breakAt: breaks,
    folds,
    goalStable: goals.size === 1,
    tokens,
    notes: run.sent.length - tokens.length,
  };
}

function naiveCost(run: Played): number {
  return run.sent.reduce((n, s) => n + costOfBill(uncachedBill(s.blocks), s.outputTokens, PRICE), 0);
}

async function main(): Promise<void> {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`context bench: ${MODEL} prices, load average ${load}`);
  const at200 = await play(200_000);
  const at42 = await play(42_000);
  // Resending everything uncached: the same task with a window it never outgrows, no cache.
  const naive = await play(10_000_000);
  const onNeed = await play(42_000, true);
  const f200 = figures(at200);
  const f42 = figures(at42);
  const naive200 = naiveCost(naive);
  for (const [name, run, f] of [
    ['200k', at200, f200],
    ['42k', at42, f42],
  ] as const) {
    const max = Math.max(...f.tokens);
    console.log(
      `  ${name}: ${f.tokens.length} turns + ${f.notes} note requests, ${f.folds} folds, ${f.breaks} prefix breaks (requests ${f.breakAt.join(', ')}), ` +
        `largest request ${max} tokens (budget ${run.budgetTokens}, high-water ${Math.round(0.8 * run.budgetTokens)}), ` +
        `cost $${f.keel.toFixed(3)} (Keel's own count $${run.keelUsageCost.toFixed(3)}), ideal $${f.ideal.toFixed(3)}, ${run.status}`,
    );
  }
  console.log(`  naive (everything resent uncached, no folding): $${naive200.toFixed(3)} over ${naive.sent.length} requests`);
  console.log(
    `  re-read on need (42k): ${onNeed.model.rereadsAfterFold} re-reads after a fold, ${onNeed.model.skipped} planned re-reads skipped`,
  );
  const results = {
    costRatioToIdeal200k: round(f200.keel / f200.ideal),
    costRatioToIdeal42k: round(f42.keel / f42.ideal),
    costRatioToNaive200k: round(f200.keel / naive200),
    prefixBreaks200k: f200.breaks,
    prefixBreaks42k: f42.breaks,
    folds200k: f200.folds,
    folds42k: f42.folds,
    goalBytesStable: f200.goalStable && f42.goalStable,
    rereadsAfterFold: onNeed.model.rereadsAfterFold,
    costUsd200k: round(f200.keel, 4),
    idealCostUsd200k: round(f200.ideal, 4),
    naiveCostUsd200k: round(naive200, 4),
    costUsd42k: round(f42.keel, 4),
    idealCostUsd42k: round(f42.ideal, 4),
    requestTokens200k: f200.tokens,
    requestTokens42k: f42.tokens,
    loadAverage: load,
  };
  const checks = [
    results.costRatioToIdeal200k <= 1.15,
    results.costRatioToIdeal42k <= 1.15,
    results.costRatioToNaive200k <= 0.25,
    results.prefixBreaks200k <= f200.folds + 1,
    results.prefixBreaks42k <= f42.folds + 1,
    results.goalBytesStable,
  ];
  const { requestTokens200k: _a, requestTokens42k: _b, ...shown } = results;
  console.log(JSON.stringify(shown, null, 2));
  console.log(`  targets ${checks.every(Boolean) ? 'met' : 'NOT met'}; written to ${writeResults('context', results)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
