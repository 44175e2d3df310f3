// The fleet on BullMQ: jobs go into one queue in Redis, workers on any machine take them up to
// their concurrency, and each job's result is its BullMQ return value. BullMQ's stalled-job
// check hands the job of a worker that died (its lock lapsed) to another worker, which runs it
// again from the start in a new folder; a job is completed once, by the worker holding its lock.
// A job never throws for a task that failed — that is a result — only for infrastructure
// trouble, which BullMQ retries.
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { FleetResult } from './fleet-result.js';
import type { FleetJob } from './job.js';

/** Redis keys of a queue start with this (BullMQ's own keys, the gate and the budget alike). */
const PREFIX = 'keel';

export interface FleetConnection {
  redis: Redis;
  queue: Queue<FleetJob, FleetResult>;
  /** The prefix of this queue's own keys (gate, budget). */
  keys: string;
  close(): Promise<void>;
}

export function connectFleet(url: string, name: string): FleetConnection {
  // BullMQ's blocking commands need a connection that never gives up on a request.
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  // Commands report their own failures; a dropped connection is retried by ioredis, not printed per attempt.
  redis.on('error', () => undefined);
  const queue = new Queue<FleetJob, FleetResult>(name, { connection: redis, prefix: PREFIX });
  return {
    redis,
    queue,
    keys: `${PREFIX}:${name}:fleet`,
    async close() {
      await queue.close();
      redis.disconnect();
    },
  };
}

/** Adds jobs; a job whose id is already in the queue is not added again. Returns the ids. */
export async function addJobs(queue: Queue<FleetJob, FleetResult>, jobs: readonly FleetJob[]): Promise<string[]> {
  const entries = jobs.map((job) => {
    const jobId = job.id ?? randomUUID();
    return {
      name: 'task',
      data: { ...job, id: jobId },
      opts: {
        jobId,
        // Only infrastructure errors throw: try those again a little later.
        attempts: 3,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: false,
        removeOnFail: false,
      },
    };
  });
  await queue.addBulk(entries);
  return entries.map((e) => e.opts.jobId);
}

export interface WorkerSettings {
  url: string;
  name: string;
  /** Jobs this worker runs at once. */
  concurrency: number;
  /** This worker's name in results and status (`host:pid`). */
  workerName: string;
  /** How long a job's lock lasts without renewal: a dead worker's jobs move on after about this long. */
  lockMs: number;
}

export type JobRunner = (job: FleetJob, context: { jobId: string; attempt: number; signal: AbortSignal }) => Promise<FleetResult>;

export interface FleetWorker {
  /** Stops taking jobs; waits for the running ones unless `force`. */
  close(force?: boolean): Promise<void>;
  readonly worker: Worker<FleetJob, FleetResult>;
}

export function startWorker(settings: WorkerSettings, run: JobRunner): FleetWorker {
  const connection = new Redis(settings.url, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  const worker = new Worker<FleetJob, FleetResult>(
    settings.name,
    async (job: Job<FleetJob, FleetResult>, _token, signal) =>
      run(job.data, {
        jobId: job.id ?? job.data.id ?? 'unknown',
        attempt: job.attemptsStarted,
        signal: signal ?? new AbortController().signal,
      }),
    {
      connection,
      prefix: PREFIX,
      concurrency: settings.concurrency,
      name: settings.workerName,
      lockDuration: settings.lockMs,
      stalledInterval: settings.lockMs,
      // A job whose worker died twice is not tried a third time: it fails with BullMQ's reason.
      maxStalledCount: 2,
    },
  );
  return {
    worker,
    async close(force = false) {
      await worker.close(force);
      connection.disconnect();
    },
  };
}

export interface FleetStatus {
  counts: Record<string, number>;
  workers: string[];
}

export async function fleetStatus(queue: Queue<FleetJob, FleetResult>): Promise<FleetStatus> {
  const counts = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized');
  const workers = (await queue.getWorkers()).map((w) => String(w.name ?? w.addr ?? 'worker'));
  return { counts, workers };
}

/** Every finished job: completed ones with their result, failed ones (infrastructure) with BullMQ's reason. */
export async function fleetResults(
  queue: Queue<FleetJob, FleetResult>,
): Promise<{ results: FleetResult[]; failed: { jobId: string; reason: string }[] }> {
  const completed = await queue.getCompleted(0, -1);
  const failed = await queue.getFailed(0, -1);
  const results = completed.map((j) => j.returnvalue as FleetResult).filter((r): r is FleetResult => !!r?.result);
  results.sort((a, b) => a.jobId.localeCompare(b.jobId));
  return { results, failed: failed.map((j) => ({ jobId: String(j.id), reason: j.failedReason ?? 'failed' })) };
}
