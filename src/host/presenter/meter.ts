// The context meter: how much of the model's window the request uses, split the way folding
// thinks of it (system + tools, repo map + folded notes + ledger, live history, the answer's reserve), and
// the task's tokens and cost so far per kind (input, cache read, cache write, output).
import { requestBreakdown, type ModelRequest, type Usage } from '../../kernel/index.js';
import type { Price } from '../../providers/models.js';
import type { Meter, MeterSplit, TokenKinds } from '../../protocol/index.js';

const tokens = (chars: number): number => Math.ceil(chars / 4);

/** The split of the request the kernel is about to send (or would send now). */
export function splitOfRequest(request: ModelRequest): MeterSplit {
  const b = requestBreakdown(request);
  return { systemTools: b.systemTools, notes: b.notes, history: b.history, outputReserve: b.outputReserve };
}

/** Running character counts, for when no request is at hand (a task loaded from its log). */
export interface CharTally {
  conversation: number;
  toolResults: number;
}

export function splitOfTally(tally: CharTally): MeterSplit {
  return { systemTools: 0, notes: 0, history: tokens(tally.conversation + tally.toolResults), outputReserve: 0 };
}

/** Context in use is what the last turn sent: fresh input plus what came from or went to cache. */
function contextTokens(usage: Usage | undefined): number | undefined {
  if (!usage) return undefined;
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

function tokenKinds(u: Usage): TokenKinds {
  return { input: u.inputTokens, cacheRead: u.cacheReadTokens, cacheWrite: u.cacheWriteTokens, output: u.outputTokens };
}

function costKinds(t: TokenKinds, p: Price): TokenKinds {
  const usd = (n: number, perMillion: number) => (n * perMillion) / 1_000_000;
  return {
    input: usd(t.input, p.input),
    cacheRead: usd(t.cacheRead, p.cacheRead),
    cacheWrite: usd(t.cacheWrite, p.cacheWrite),
    output: usd(t.output, p.output),
  };
}

export function buildMeter(args: {
  lastTurnUsage: Usage | undefined;
  usage: Usage;
  costUsd: number | undefined;
  windowTokens: number;
  split: MeterSplit;
  price: Price | undefined;
  folds: number;
}): Meter {
  const { split } = args;
  const estimated = split.systemTools + split.notes + split.history;
  const kinds = tokenKinds(args.usage);
  return {
    usedTokens: contextTokens(args.lastTurnUsage) ?? estimated,
    windowTokens: args.windowTokens,
    split,
    tokens: kinds,
    ...(args.costUsd === undefined ? {} : { costUsd: args.costUsd }),
    ...(args.price ? { cost: costKinds(kinds, args.price) } : {}),
    folds: args.folds,
  };
}
