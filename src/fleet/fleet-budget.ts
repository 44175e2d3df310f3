// The fleet's cost cap: every job's spend is added, turn by turn, to one total (in Redis for
// workers, in memory for `keel fleet run`), and once the total passes the cap each running job
// stops at its next turn and no further job starts. A job's own caps are checked beside it.
import type { Redis } from 'ioredis';
import type { Budget } from '../compose/index.js';

export interface FleetBudget extends Budget {
  /** Why no job may start now (the fleet's cap is spent), or undefined. */
  spentOut(): Promise<string | undefined>;
  /** Dollars spent by the fleet so far. */
  spent(): Promise<number>;
}

function overCap(spent: number, cap: number | undefined): string | undefined {
  if (cap === undefined || spent < cap) return undefined;
  return `The fleet's cost cap is spent: $${spent.toFixed(4)} of $${cap}.`;
}

export function localFleetBudget(capUsd: number | undefined): FleetBudget {
  let total = 0;
  return {
    async charge(spend) {
      total += spend.usd ?? 0;
      return overCap(total, capUsd);
    },
    async spentOut() {
      return overCap(total, capUsd);
    },
    async spent() {
      return total;
    },
  };
}

/** Keys of a queue's fleet budget: the cap (set by `keel fleet add --fleet-max-cost`) and the total. */
export function budgetKeys(prefix: string): { cap: string; spent: string } {
  return { cap: `${prefix}:budget:cap-usd`, spent: `${prefix}:budget:spent-usd` };
}

export function redisFleetBudget(redis: Redis, prefix: string): FleetBudget {
  const keys = budgetKeys(prefix);
  const cap = async () => {
    const value = await redis.get(keys.cap);
    return value === null ? undefined : Number(value);
  };
  return {
    async charge(spend) {
      const total = spend.usd ? Number(await redis.incrbyfloat(keys.spent, spend.usd)) : Number((await redis.get(keys.spent)) ?? 0);
      return overCap(total, await cap());
    },
    async spentOut() {
      return overCap(Number((await redis.get(keys.spent)) ?? 0), await cap());
    },
    async spent() {
      return Number((await redis.get(keys.spent)) ?? 0);
    },
  };
}
