// What a fleet keeps per job, the same whether it ran on a worker or in `keel fleet run`: the
// job's id, the worker and attempt that ran it, where its folder is on that worker, and the run
// result (schemas/run-result.schema.json). `keel fleet results --json` prints a list of these.
import type { RunResult } from '../compose/index.js';

export interface FleetResult {
  jobId: string;
  /** The worker that ran it: `host:pid` (or `local` for keel fleet run). */
  worker: string;
  /** 1 for the first attempt; more when a crashed worker's job was run again. */
  attempt: number;
  /** The attempt's folder on that worker's machine (the log and result.json are in it). */
  folder: string;
  result: RunResult;
}

/** The outcome counts of a set of results, for a summary line. */
export function tally(results: readonly FleetResult[]): Record<RunResult['status'], number> {
  const counts: Record<RunResult['status'], number> = { done: 0, failed: 0, refused: 0, over_budget: 0, stopped: 0 };
  for (const r of results) counts[r.result.status]++;
  return counts;
}
