// bench:fleet — jobs per minute with 1, 2 and 4 `keel fleet work` processes on a real
// redis-server, against the model stand-in answering every request in a fixed time (so the
// model's time dominates, as with a real provider), and the queue's cost per job: one worker's
// wall time over the same jobs run by the embedded runner in this process (no Redis, no queue),
// per job. Every figure is the bench's own clock: start of the add to the last completed job.
// Writes bench/results/fleet.json. Not part of CI (it takes about two minutes).
//   npm run bench:fleet            (FLEET_BENCH_JOBS, FLEET_BENCH_RUNS, FLEET_BENCH_REPLY_MS to change)
import * as fs from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { runFleetJob } from '../src/cli/fleet-job.js';
import { workerFlags, parseFleetFlags } from '../src/cli/fleet-args.js';
import { addJobs, connectFleet, localFleetBudget, localGate, parseJobLines, runEmbedded } from '../src/fleet/index.js';
import { fleetModel } from '../test/support/fleet-model.js';
import { jobLines, tinyWorkspace } from '../test/support/fleet-jobs.js';
import { startModelServer } from '../test/support/model-server.js';
import { spawnGroup, waitFor, type GroupProcess } from '../test/support/processes.js';
import { startRedis } from '../test/support/redis-server.js';
import { scratchDir } from '../test/support/scratch.js';
import { median, round, writeResults } from './report.js';

const ROOT = path.resolve(__dirname, '..');
const JOBS = Number(process.env.FLEET_BENCH_JOBS ?? 16);
const RUNS = Number(process.env.FLEET_BENCH_RUNS ?? 3);
const REPLY_MS = Number(process.env.FLEET_BENCH_REPLY_MS ?? 250);
const WORKER_COUNTS = [1, 2, 4] as const;
const TARGETS = { scaling4over1: 3.2, queueOverheadMsPerJob: 20 };

const env = {
  XDG_CONFIG_HOME: scratchDir('fb-cfg'),
  XDG_CACHE_HOME: scratchDir('fb-cache'),
  ANTHROPIC_API_KEY: 'bench-key',
};

async function main(): Promise<void> {
  Object.assign(process.env, env);
  const redis = await startRedis();
  const model = fleetModel(REPLY_MS);
  const server = await startModelServer(model.respond);
  const source = tinyWorkspace();
  const jobs = parseJobLines(jobLines(source, Array(JOBS).fill('pass'))).jobs;
  const modelFlags = ['--base-url', server.anthropicBaseURL];
  let run = 0;
  try {
    const embeddedMs: number[] = [];
    const byWorkers: Record<number, number[]> = { 1: [], 2: [], 4: [] };
    for (let r = 0; r < RUNS; r++) {
      embeddedMs.push(await embedded(jobs, modelFlags));
      for (const n of WORKER_COUNTS) byWorkers[n]!.push(await onWorkers(n, jobs, redis.url, `bench-${process.pid}-${++run}`, modelFlags));
      console.log(
        `run ${r + 1}/${RUNS}: embedded ${Math.round(embeddedMs[r]!)} ms; ${WORKER_COUNTS.map((n) => `${n} worker(s) ${Math.round(byWorkers[n]![r]!)} ms`).join(', ')}`,
      );
    }
    const perMinute = (ms: number) => round((JOBS / ms) * 60_000, 1);
    const m = (xs: number[]) => median(xs);
    const figures = {
      jobsPerMinute: Object.fromEntries(WORKER_COUNTS.map((n) => [`workers${n}`, perMinute(m(byWorkers[n]!))])),
      jobsPerMinuteEmbedded: perMinute(m(embeddedMs)),
      scaling4over1: round(m(byWorkers[1]!) / m(byWorkers[4]!), 2),
      scaling2over1: round(m(byWorkers[1]!) / m(byWorkers[2]!), 2),
      queueOverheadMsPerJob: round((m(byWorkers[1]!) - m(embeddedMs)) / JOBS, 1),
      modelMsPerJob: 2 * REPLY_MS,
      jobs: JOBS,
      runs: RUNS,
      targets: TARGETS,
      loadavg: loadavg().map((x) => round(x, 2)),
    };
    console.log(JSON.stringify(figures, null, 2));
    console.log(`wrote ${writeResults('fleet', figures)}`);
  } finally {
    await server.close();
    await redis.stop();
  }
}

/** The same jobs with the embedded runner, one at a time, in this process: the run without any queue. */
async function embedded(jobs: Parameters<typeof runEmbedded>[0], modelFlags: string[]): Promise<number> {
  const flags = workerFlags(parseFleetFlags([...modelFlags, '--dir', scratchDir('fb-emb')]).values, process.env);
  const host = {
    flags,
    allowed: 'any' as const,
    gate: localGate(flags.gate),
    budget: localFleetBudget(undefined),
    env: process.env,
    stderr: process.stderr,
    worker: 'bench',
  };
  const started = performance.now();
  const results = await runEmbedded(jobs, 1, (job, context) => runFleetJob(job, context, host), new AbortController().signal);
  const ms = performance.now() - started;
  if (results.some((r) => r.result.status !== 'done')) throw new Error('an embedded job did not end done');
  return ms;
}

/** N worker processes on a fresh queue: from the add to the last job completed. */
async function onWorkers(
  n: number,
  jobs: Parameters<typeof addJobs>[1],
  url: string,
  queue: string,
  modelFlags: string[],
): Promise<number> {
  const workers: GroupProcess[] = [];
  const fleet = connectFleet(url, queue);
  try {
    for (let i = 0; i < n; i++) {
      const args = [
        '--import=tsx',
        path.join(ROOT, 'src/cli/main.ts'),
        'fleet',
        'work',
        '--redis',
        url,
        '--queue',
        queue,
        '--concurrency',
        '1',
      ];
      workers.push(
        spawnGroup(process.execPath, [...args, ...modelFlags, '--allow-workspace', jobs[0]!.workspace!, '--dir', scratchDir(`fb-w${i}`)], {
          cwd: ROOT,
          env: { ...process.env },
        }),
      );
    }
    await waitFor(`${n} workers`, async () => (await fleet.queue.getWorkers()).length >= n, { timeoutMs: 60_000, intervalMs: 50 });
    const started = performance.now();
    await addJobs(fleet.queue, jobs);
    await waitFor('every job', async () => (await fleet.queue.getCompletedCount()) >= jobs.length, { timeoutMs: 300_000, intervalMs: 5 });
    const ms = performance.now() - started;
    const failed = await fleet.queue.getFailedCount();
    if (failed) throw new Error(`${failed} job(s) failed on ${n} worker(s)`);
    return ms;
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await fleet.close();
  }
}

fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
