// The fleet on BullMQ: jobs go into one queue in Redis, workers on any machine take them up to
// their concurrency, and each job's result is its BullMQ return value. BullMQ's stalled-job
// check hands the job of a worker that died (its lock lapsed) to another worker, which runs it
// again from the start in a new folder; a job is completed once, by the worker holding its lock.
// A job never throws for a task that failed — that is a result — only for infrastructure
// trouble, which BullMQ retries.
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { tally, type FleetResult } from './fleet-result.js';
import type { RunResult } from '../compose/index.js';
import type { FleetJob } from './job.js';
import { reachRedis, shownUrl } from './reach.js';

/** Redis keys of a queue start with this (BullMQ's own keys, the gate and the budget alike). */
const PREFIX = 'keel';

export interface FleetConnection {
  redis: Redis;
  queue: Queue<FleetJob, FleetResult>;
  /** The prefix of this queue's own keys (gate, budget). */
  keys: string;
  /** Waits for the queue to close; `force`: drops the connection at once (Redis may be gone). */
  close(force?: boolean): Promise<void>;
}

/** A connection to the queue once Redis has answered: an unreachable one is RedisUnreachable within seconds. */
export async function openFleet(url: string, name: string): Promise<FleetConnection> {
  await reachRedis(url);
  return connectFleet(url, name);
}

export function connectFleet(url: string, name: string): FleetConnection {
  // BullMQ's blocking commands need a connection that never gives up on a request.
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  // Commands report their own failures; a dropped connection is retried by ioredis, not printed per attempt.
  redis.on('error', () => undefined);
  const queue = new Queue<FleetJob, FleetResult>(name, { connection: redis, prefix: PREFIX });
  // Without a listener BullMQ prints each connection error with its stack.
  queue.on('error', () => undefined);
  return {
    redis,
    queue,
    keys: `${PREFIX}:${name}:fleet`,
    async close(force = false) {
      if (!force) await queue.close();
      else void queue.close().catch(() => undefined);
      redis.disconnect();
    },
  };
}

/** A job id given again: refused unless the caller replaces the old job. */
export class DuplicateJob extends Error {
  override name = 'DuplicateJob';
}

/**
 * Adds jobs. An id already in the queue is refused (DuplicateJob) — BullMQ would silently keep
 * the old job — unless `replace`, which removes the finished or waiting job of that id first; a
 * job that is running is never replaced. Returns the ids.
 */
export async function addJobs(
  queue: Queue<FleetJob, FleetResult>,
  jobs: readonly FleetJob[],
  options: { replace?: boolean } = {},
): Promise<string[]> {
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
  await clearIds(
    queue,
    jobs.flatMap((j) => (j.id === undefined ? [] : [j.id])),
    options.replace ?? false,
  );
  await queue.addBulk(entries);
  return entries.map((e) => e.opts.jobId);
}

async function clearIds(queue: Queue<FleetJob, FleetResult>, ids: readonly string[], replace: boolean): Promise<void> {
  const taken: string[] = [];
  for (const id of ids) {
    const old = await queue.getJob(id);
    if (!old) continue;
    const state = await old.getState();
    if (!replace || state === 'active') taken.push(`"${id}" (${state})`);
    else await old.remove();
  }
  if (taken.length === 0) return;
  const fix = replace ? 'a running job cannot be replaced' : 'give new ids, or pass --replace to run them again';
  throw new DuplicateJob(`The queue "${queue.name}" already has the job${taken.length > 1 ? 's' : ''} ${taken.join(', ')}: ${fix}.`);
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
  /**
   * Stops taking jobs and waits for the running ones; `force`: returns at once, dropping the
   * connection first and then stopping the running jobs, so none of them is recorded (their
   * jobs go to other workers when their locks lapse).
   */
  close(force?: boolean): Promise<void>;
  /** How many jobs this worker is running now. */
  running(): number;
  readonly worker: Worker<FleetJob, FleetResult>;
}

export function startWorker(settings: WorkerSettings, run: JobRunner, onNotice: (line: string) => void = () => {}): FleetWorker {
  const connection = new Redis(settings.url, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  const running = new Set<AbortController>();
  let forced = false;
  const worker = new Worker<FleetJob, FleetResult>(
    settings.name,
    async (job: Job<FleetJob, FleetResult>, _token, signal) => {
      const stop = new AbortController();
      running.add(stop);
      signal?.addEventListener('abort', () => stop.abort(), { once: true });
      try {
        const jobId = job.id ?? job.data.id ?? 'unknown';
        const result = await run(job.data, { jobId, attempt: job.attemptsStarted, signal: stop.signal });
        // Stopped at once: this attempt is not the job's result; another worker runs it again.
        if (forced) throw new Error('the worker stopped before this job finished');
        return result;
      } finally {
        running.delete(stop);
      }
    },
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
  watchOutages(worker, connection, settings.url, onNotice);
  return {
    worker,
    running: () => running.size,
    async close(force = false) {
      if (!force) {
        await worker.close();
        connection.disconnect();
        return;
      }
      forced = true;
      connection.disconnect();
      void worker.close(true).catch(() => undefined);
      for (const stop of running) stop.abort();
    },
  };
}

/**
 * A lost connection is said once, and its return once: BullMQ would print each failed attempt
 * with its stack (every second or so) while ioredis reconnects. Jobs under way go on; their locks
 * are renewed again once Redis is back.
 */
function watchOutages(worker: Worker<FleetJob, FleetResult>, connection: Redis, url: string, onNotice: (line: string) => void): void {
  let lost = false;
  worker.on('error', (err: Error) => {
    if (lost) return;
    lost = true;
    onNotice(`lost Redis at ${shownUrl(url)} (${err.message.split('\n')[0]}); waiting for it to come back`);
  });
  connection.on('ready', () => {
    if (!lost) return;
    lost = false;
    onNotice(`Redis at ${shownUrl(url)} is back`);
  });
}

/** A worker as status shows it: its name (`host:pid`) and the jobs it is running. */
interface WorkerStatus {
  id: string;
  jobs: string[];
}

export interface FleetStatus {
  /** Jobs not yet finished, by BullMQ state. */
  queued: { waiting: number; active: number; delayed: number; prioritized: number };
  /** Finished jobs by outcome, counted as `fleet results` counts them (a job BullMQ failed is `failed`). */
  outcomes: Record<RunResult['status'], number>;
  workers: WorkerStatus[];
  /** Active jobs whose worker is gone or whose lock lapsed: another worker takes them up once the lock lapses. */
  stalled: { jobId: string; worker: string }[];
}

export async function fleetStatus(fleet: Pick<FleetConnection, 'queue' | 'redis'>): Promise<FleetStatus> {
  const { queue } = fleet;
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  const queued = {
    waiting: counts.waiting ?? 0,
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    prioritized: counts.prioritized ?? 0,
  };
  const finished = await fleetResults(queue);
  const outcomes = tally(finished.results);
  outcomes.failed += finished.failed.length;
  const live = (await queue.getWorkers()).map(workerId);
  const workers: WorkerStatus[] = live.map((id) => ({ id, jobs: [] }));
  const stalled: FleetStatus['stalled'] = [];
  for (const job of await queue.getActive(0, -1)) {
    const id = String(job.id);
    const owner = workers.find((w) => w.id === job.processedBy);
    const locked = (await fleet.redis.exists(`${queue.toKey(id)}:lock`)) === 1;
    if (owner && locked) owner.jobs.push(id);
    else stalled.push({ jobId: id, worker: job.processedBy ?? 'unknown' });
  }
  return { queued, outcomes, workers, stalled };
}

/** A worker's own name from its Redis client name (`<queue's client name>:w:<name>`); BullMQ reports the queue's. */
function workerId(client: { rawname?: string; name?: string; addr?: string }): string {
  const raw = client.rawname ?? '';
  const at = raw.indexOf(':w:');
  return at >= 0 ? raw.slice(at + 3) : String(client.addr ?? client.name ?? 'worker');
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
