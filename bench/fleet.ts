// bench:fleet — jobs per minute with 1, 2 and 4 `keel fleet work` processes on a real
// redis-server, against the model stand-in answering every request in a fixed time (so the
// model's time dominates, as with a real provider), and the queue's cost per job against an
// independent baseline in the same run: the same jobs run one at a time by the embedded runner
// (no Redis, no queue) in a process of its own, as a worker is. Every process first runs a few
// warm-up jobs (a fresh Node process runs its first jobs slower: code not yet compiled hot), so
// both sides are timed in their steady state; what a fresh worker's first jobs cost is its own
// figure, workerWarmupMs. Every figure is the bench's own clock: from the "go" (the add, for the
// queue) to the last job completed, seen through BullMQ's completed events (no polling).
// Writes bench/results/fleet.json. Not part of CI (it takes a few minutes).
//   npm run bench:fleet   (FLEET_BENCH_JOBS, FLEET_BENCH_RUNS, FLEET_BENCH_REPLY_MS, FLEET_BENCH_WARMUP to change)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { QueueEvents } from 'bullmq';
import { runFleetJob } from '../src/cli/fleet-job.js';
import { workerFlags, parseFleetFlags } from '../src/cli/fleet-args.js';
import { addJobs, connectFleet, localFleetBudget, localGate, parseJobLines, runEmbedded, type FleetJob } from '../src/fleet/index.js';
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
/** Warm-up jobs per process before the timed ones. */
const WARMUP = Number(process.env.FLEET_BENCH_WARMUP ?? 3);
const WORKER_COUNTS = [1, 2, 4] as const;
const TARGETS = { scaling4over1: 3.2, queueOverheadMsPerJob: 20 };
const BASELINE_ARG = '--baseline-process';

const env = {
  XDG_CONFIG_HOME: scratchDir('fb-cfg'),
  XDG_CACHE_HOME: scratchDir('fb-cache'),
  ANTHROPIC_API_KEY: 'bench-key',
};

/** The jobs of one timed batch (or warm-up), with ids of their own: a queue never re-adds an id. */
function batch(source: string, count: number, tag: string): FleetJob[] {
  return parseJobLines(jobLines(source, Array(count).fill('pass')).replaceAll('"job-', `"${tag}-job-`)).jobs;
}

async function main(): Promise<void> {
  Object.assign(process.env, env);
  const load = [loadavg()[0]!];
  const redis = await startRedis();
  const server = await startModelServer(fleetModel(REPLY_MS).respond);
  const source = tinyWorkspace();
  const modelFlags = ['--base-url', server.anthropicBaseURL];
  let run = 0;
  try {
    const baselineMs: number[] = [];
    const warmupMs: number[] = [];
    const byWorkers: Record<number, number[]> = { 1: [], 2: [], 4: [] };
    for (let r = 0; r < RUNS; r++) {
      baselineMs.push(await baseline(source, modelFlags));
      for (const n of WORKER_COUNTS) {
        const timed = await onWorkers(n, source, redis.url, `bench-${process.pid}-${++run}`, modelFlags);
        byWorkers[n]!.push(timed.ms);
        if (n === 1) warmupMs.push(timed.warmupMs - (WARMUP * timed.ms) / JOBS);
      }
      load.push(loadavg()[0]!);
      const line = WORKER_COUNTS.map((n) => `${n} worker(s) ${Math.round(byWorkers[n]![r]!)} ms`).join(', ');
      console.log(`run ${r + 1}/${RUNS}: baseline ${Math.round(baselineMs[r]!)} ms; ${line}; load ${loadavg()[0]!.toFixed(1)}`);
    }
    const perMinute = (ms: number) => round((JOBS / ms) * 60_000, 1);
    const m = (xs: number[]) => median(xs);
    const figures = {
      jobsPerMinute: Object.fromEntries(WORKER_COUNTS.map((n) => [`workers${n}`, perMinute(m(byWorkers[n]!))])),
      jobsPerMinuteBaseline: perMinute(m(baselineMs)),
      scaling4over1: round(m(byWorkers[1]!) / m(byWorkers[4]!), 2),
      scaling2over1: round(m(byWorkers[1]!) / m(byWorkers[2]!), 2),
      queueOverheadMsPerJob: round((m(byWorkers[1]!) - m(baselineMs)) / JOBS, 1),
      // The spread of the baseline itself, per job: an overhead smaller than this is noise.
      baselineSpreadMsPerJob: round((Math.max(...baselineMs) - Math.min(...baselineMs)) / JOBS, 1),
      workerWarmupMs: Math.round(m(warmupMs)),
      modelMsPerJob: 2 * REPLY_MS,
      jobs: JOBS,
      warmupJobs: WARMUP,
      runs: RUNS,
      targets: TARGETS,
      loadavg1m: { start: round(load[0]!, 2), median: round(m(load), 2), end: round(load.at(-1)!, 2) },
    };
    console.log(JSON.stringify(figures, null, 2));
    console.log(`wrote ${writeResults('fleet', figures)}`);
  } finally {
    await server.close();
    await redis.stop();
  }
}

/**
 * The baseline: a process of its own (like a worker) that runs WARMUP jobs, says "ready", and on
 * "go" runs the timed jobs with the embedded runner — the same runFleetJob, no queue — then says "done".
 */
async function baseline(source: string, modelFlags: string[]): Promise<number> {
  const child = spawn(process.execPath, ['--import=tsx', __filename, BASELINE_ARG, source, ...modelFlags], {
    cwd: ROOT,
    env: { ...process.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  try {
    if ((await next()) !== 'ready') throw new Error('the baseline process did not warm up');
    const started = performance.now();
    child.stdin.write('go\n');
    const answer = await next();
    const ms = performance.now() - started;
    if (answer !== 'done') throw new Error(`the baseline process said: ${answer}`);
    return ms;
  } finally {
    child.kill();
  }
}

async function baselineProcess(source: string, modelFlags: string[]): Promise<void> {
  const flags = workerFlags(parseFleetFlags([...modelFlags, '--dir', scratchDir('fb-base')]).values, process.env);
  const host = {
    flags,
    allowed: 'any' as const,
    gate: localGate(flags.gate),
    budget: localFleetBudget(undefined),
    env: process.env,
    stderr: process.stderr,
    worker: 'baseline',
    onSandboxUnavailable: (reason: string) => process.stderr.write(`baseline: no sandbox (${reason})\n`),
  };
  const runAll = async (jobs: FleetJob[]) => {
    const results = await runEmbedded(jobs, 1, (job, context) => runFleetJob(job, context, host), new AbortController().signal);
    return results.every((r) => r.result.status === 'done');
  };
  await runAll(batch(source, WARMUP, 'warm'));
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
  process.stdout.write((await runAll(batch(source, JOBS, 'timed'))) ? 'done\n' : 'a job did not end done\n');
}

/** N fresh worker processes on a fresh queue: WARMUP jobs each, then the timed jobs, from the add to the last completed. */
async function onWorkers(
  n: number,
  source: string,
  url: string,
  queue: string,
  modelFlags: string[],
): Promise<{ ms: number; warmupMs: number }> {
  const workers: GroupProcess[] = [];
  const fleet = connectFleet(url, queue);
  const events = new QueueEvents(queue, { connection: { url }, prefix: 'keel' });
  try {
    await events.waitUntilReady();
    for (let i = 0; i < n; i++) {
      const args = ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), 'fleet', 'work', '--redis', url, '--queue', queue];
      args.push(
        '--concurrency',
        '1',
        ...modelFlags,
        '--allow-workspace',
        source,
        '--dir',
        scratchDir(`fb-w${i}`),
        '--approve',
        'read,write',
      );
      workers.push(spawnGroup(process.execPath, args, { cwd: ROOT, env: { ...process.env } }));
    }
    await waitFor(`${n} workers`, async () => (await fleet.queue.getWorkers()).length >= n, { timeoutMs: 60_000, intervalMs: 50 });
    const warmupMs = await timed(fleet, events, batch(source, WARMUP * n, 'warm'));
    const ms = await timed(fleet, events, batch(source, JOBS, 'timed'));
    const failed = await fleet.queue.getFailedCount();
    if (failed) throw new Error(`${failed} job(s) failed on ${n} worker(s)`);
    return { ms, warmupMs };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await events.close();
    await fleet.close();
  }
}

/** From the add to the completed event of the last of these jobs. */
async function timed(fleet: ReturnType<typeof connectFleet>, events: QueueEvents, jobs: FleetJob[]): Promise<number> {
  const waiting = new Set(jobs.map((j) => j.id!));
  const allDone = new Promise<void>((resolve) => {
    const onCompleted = ({ jobId }: { jobId: string }) => {
      waiting.delete(jobId);
      if (waiting.size > 0) return;
      events.off('completed', onCompleted);
      resolve();
    };
    events.on('completed', onCompleted);
  });
  const started = performance.now();
  await addJobs(fleet.queue, jobs);
  await allDone;
  return performance.now() - started;
}

if (process.argv[2] === BASELINE_ARG) {
  void baselineProcess(process.argv[3]!, process.argv.slice(4));
} else {
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
