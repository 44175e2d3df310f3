// Spending caps on a headless task: each model turn's usage is charged as it is logged, and the
// first cap it passes stops the task (its partial work and result are kept). A job's own caps
// are checked here; a fleet adds a shared ledger (src/fleet) through the same interface.
import type { Usage } from '../kernel/index.js';

/** One turn's spend: its cost (undefined when the model's price is unknown) and its tokens. */
export interface Spend {
  usd: number | undefined;
  tokens: number;
}

export interface Budget {
  /** Adds a turn's spend; resolves to why the task must stop now, or undefined to go on. */
  charge(spend: Spend): Promise<string | undefined>;
}

export interface BudgetCaps {
  /** US dollars for the whole task (sub-agents included). */
  usd?: number | undefined;
  /** Tokens of every kind (input, output, cache read and write) for the whole task. */
  tokens?: number | undefined;
}

export function spendOf(usage: Usage): Spend {
  return {
    usd: usage.costUsd,
    tokens: usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
  };
}

/** One task's caps, counted in this process. */
export function taskBudget(caps: BudgetCaps): Budget {
  let usd = 0;
  let tokens = 0;
  return {
    async charge(spend) {
      usd += spend.usd ?? 0;
      tokens += spend.tokens;
      if (caps.usd !== undefined && usd >= caps.usd) return `Over its cost cap: $${usd.toFixed(4)} spent of $${caps.usd}.`;
      if (caps.tokens !== undefined && tokens >= caps.tokens) return `Over its token cap: ${tokens} tokens used of ${caps.tokens}.`;
      return undefined;
    },
  };
}

/** Every budget is charged; the first reason to stop wins. */
export function allBudgets(budgets: readonly Budget[]): Budget {
  return {
    async charge(spend) {
      const reasons = await Promise.all(budgets.map((b) => b.charge(spend)));
      return reasons.find((r) => r !== undefined);
    },
  };
}
