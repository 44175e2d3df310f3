// `keel fleet run` without Redis: the same jobs, the same runner and the same results, on this
// machine — at most `concurrency` jobs at once, in the order given. A user starts here and moves
// to workers by adding --redis.
import type { FleetResult } from './fleet-result.js';
import type { FleetJob } from './job.js';
import type { JobRunner } from './queue.js';

export async function runEmbedded(
  jobs: readonly FleetJob[],
  concurrency: number,
  run: JobRunner,
  signal: AbortSignal,
  onResult?: (r: FleetResult) => void,
): Promise<FleetResult[]> {
  const results: FleetResult[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i]!;
      results[i] = await run(job, { jobId: job.id ?? `job-${i + 1}`, attempt: 1, signal });
      onResult?.(results[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, lane));
  return results;
}
