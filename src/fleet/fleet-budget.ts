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

// KEYS: spent, cap. ARGV: dollars to add. Returns {total, cap or false}: one round trip per turn.
const CHARGE = `
local total = tonumber(ARGV[1]) > 0 and redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]) or (redis.call('GET', KEYS[1]) or '0')
return {tostring(total), redis.call('GET', KEYS[2])}
`;

export function redisFleetBudget(redis: Redis, prefix: string): FleetBudget {
  const keys = budgetKeys(prefix);
  const charge = async (usd: number) => {
    const [total, cap] = (await redis.eval(CHARGE, 2, keys.spent, keys.cap, String(usd))) as [string, string | null];
    return { total: Number(total), cap: cap === null ? undefined : Number(cap) };
  };
  return {
    async charge(spend) {
      const { total, cap } = await charge(spend.usd ?? 0);
      return overCap(total, cap);
    },
    async spentOut() {
      const { total, cap } = await charge(0);
      return overCap(total, cap);
    },
    async spent() {
      return (await charge(0)).total;
    },
  };
}
