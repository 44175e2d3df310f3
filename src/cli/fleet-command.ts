// `keel fleet add|work|run|status|results`: many headless tasks on BullMQ + Redis, or on this
// machine without Redis (`keel fleet run` with no --redis). Every job runs through
// src/cli/fleet-job.ts, so a worker and the embedded runner give the same results.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  addJobs,
  budgetKeys,
  DuplicateJob,
  fleetResults,
  fleetStatus,
  localFleetBudget,
  localGate,
  openFleet,
  parseJobLines,
  RedisUnreachable,
  redisFleetBudget,
  redisGate,
  runEmbedded,
  startWorker,
  type AllowedFolders,
  type FleetConnection,
  type FleetJob,
} from '../fleet/index.js';
import { InputError, UsageError } from './args.js';
import { jobFromFlags, parseFleetFlags, workerFlags, type WorkerFlags } from './fleet-args.js';
import { NO_SANDBOX_JOBS, redacted, runFleetJob, workerName, type JobEnvironment } from './fleet-job.js';
import { printResults, printStatus, resultsExitCode } from './fleet-report.js';
import { sandboxNotice, tellWithheld } from './task-run.js';

export interface FleetIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Registers a handler for Ctrl+C (called on each press); returns its remover. */
  onInterrupt(handler: () => void): () => void;
}

export async function runFleetCommand(argv: string[], io: FleetIo): Promise<number> {
  try {
    return await fleetCommand(argv, io);
  } catch (err) {
    // Redis that does not answer and a job id already used are the user's to fix: one line, exit 2.
    if (err instanceof RedisUnreachable || err instanceof DuplicateJob) throw new InputError(err.message);
    throw err;
  }
}

async function fleetCommand(argv: string[], io: FleetIo): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseFleetFlags(rest);
  const flags = workerFlags(values, io.env);
  switch (sub) {
    case 'add':
      return add(flags, jobsOf(values, positionals, io.cwd), io, values.replace ?? false);
    case 'work':
      if (positionals.length) throw new UsageError('keel fleet work takes no jobs: add them with keel fleet add.');
      return work(needRedis(flags), io);
    case 'run':
      return run(flags, jobsFile(positionals, io.cwd), io, values.replace ?? false);
    case 'status':
      return status(needRedis(flags), io);
    case 'results':
      return results(needRedis(flags), io);
    default:
      throw new UsageError(`Give a fleet command: add, work, run, status or results (got "${sub ?? ''}").`);
  }
}

function needRedis(flags: WorkerFlags): WorkerFlags & { redisUrl: string } {
  if (!flags.redisUrl) throw new UsageError('Give the Redis URL: --redis redis://HOST:PORT or KEEL_REDIS_URL.');
  return flags as WorkerFlags & { redisUrl: string };
}

/** A jobs file (one positional ending in .jsonl), or one job from flags and a task. */
function jobsOf(values: ReturnType<typeof parseFleetFlags>['values'], positionals: string[], cwd: string): FleetJob[] {
  if (positionals.length === 1 && positionals[0]!.endsWith('.jsonl')) return jobsFile(positionals, cwd);
  if (positionals.length !== 1 || !positionals[0]!.trim()) throw new UsageError('Give a JOBS.jsonl file, or one task in quotes.');
  return [jobFromFlags(values, positionals[0]!, cwd)];
}

function jobsFile(positionals: string[], cwd: string): FleetJob[] {
  if (positionals.length !== 1) throw new UsageError('Give one JOBS.jsonl file.');
  const file = path.resolve(cwd, positionals[0]!);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${positionals[0]}: ${(err as Error).message}`);
  }
  const parsed = parseJobLines(text);
  if (parsed.problems.length)
    throw new UsageError(parsed.problems.map((p) => `${positionals[0]}${p.line ? `:${p.line}` : ''}: ${p.message}`).join('\n'));
  if (parsed.jobs.length === 0) throw new UsageError(`${positionals[0]} holds no jobs.`);
  // A folder named in the file is read relative to the file, then kept absolute in the queue.
  return parsed.jobs.map((j) => (j.workspace === undefined ? j : { ...j, workspace: path.resolve(path.dirname(file), j.workspace) }));
}

async function add(flags: WorkerFlags, jobs: FleetJob[], io: FleetIo, replace: boolean): Promise<number> {
  const fleet = await openFleet(needRedis(flags).redisUrl, flags.queue);
  try {
    if (flags.fleetMaxCost !== undefined) await fleet.redis.set(budgetKeys(fleet.keys).cap, String(flags.fleetMaxCost));
    const ids = await addJobs(fleet.queue, jobs, { replace });
    io.stdout.write(flags.json ? `${JSON.stringify(ids)}\n` : `added ${ids.length} job(s) to "${flags.queue}": ${ids.join(', ')}\n`);
    return 0;
  } finally {
    await fleet.close();
  }
}

async function work(flags: WorkerFlags & { redisUrl: string }, io: FleetIo): Promise<number> {
  const fleet = await openFleet(flags.redisUrl, flags.queue);
  const environment = jobEnvironment(flags, io, fleet, flags.allowWorkspaces);
  const worker = startWorker(
    { url: flags.redisUrl, name: flags.queue, concurrency: flags.concurrency, workerName: environment.worker, lockMs: flags.lockMs },
    (job, context) => runFleetJob(job, context, environment),
    (line) => io.stderr.write(`keel fleet: ${line}\n`),
  );
  worker.worker.on('completed', (job) => io.stderr.write(`keel fleet: ${job.id} ${job.returnvalue?.result.status ?? 'done'}\n`));
  worker.worker.on('failed', (job, err) => io.stderr.write(`keel fleet: ${job?.id ?? 'a job'} failed: ${redacted(err)}\n`));
  io.stderr.write(`keel fleet: worker ${environment.worker} on "${flags.queue}" (${flags.concurrency} at once)\n`);
  // With no job running there is nothing to wait for: the first press stops at once (Redis may be gone).
  await untilStopped(io, (force) => worker.close(force || worker.running() === 0));
  // The worker's own connection carried its jobs' results; this one has nothing left to send.
  await fleet.close(true);
  return 130;
}

/**
 * The first Ctrl+C or SIGTERM stops taking jobs and waits for the running ones; a second stops
 * at once, whatever the first is waiting for (a Redis that is gone included).
 */
function untilStopped(io: FleetIo, close: (force: boolean) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    let presses = 0;
    const remove = io.onInterrupt(() => {
      presses++;
      if (presses === 1) {
        io.stderr.write('keel fleet: finishing the running jobs (Ctrl+C again stops now)\n');
        void close(false).then(resolve, resolve);
        return;
      }
      remove();
      void close(true).then(resolve, resolve);
    });
  });
}

async function run(flags: WorkerFlags, jobs: FleetJob[], io: FleetIo, replace: boolean): Promise<number> {
  if (flags.redisUrl) return runOnRedis(flags as WorkerFlags & { redisUrl: string }, jobs, io, replace);
  const controller = new AbortController();
  const remove = io.onInterrupt(() => controller.abort());
  const environment = jobEnvironment(flags, io, undefined, 'any');
  const done = await runEmbedded(
    jobs,
    flags.concurrency,
    (job, context) => runFleetJob(job, context, environment),
    controller.signal,
    (r) => io.stderr.write(`keel fleet: ${r.jobId} ${r.result.status}\n`),
  );
  remove();
  const all = printResults(done, [], flags.json, io.stdout);
  return controller.signal.aborted ? 130 : resultsExitCode(all);
}

/** With Redis: the jobs go into the queue, this process works on them too, and waits for all of them. */
async function runOnRedis(flags: WorkerFlags & { redisUrl: string }, jobs: FleetJob[], io: FleetIo, replace: boolean): Promise<number> {
  const fleet = await openFleet(flags.redisUrl, flags.queue);
  const own = jobs.flatMap((j) => (j.workspace === undefined ? [] : [j.workspace]));
  const environment = jobEnvironment(flags, io, fleet, [...flags.allowWorkspaces, ...own]);
  if (flags.fleetMaxCost !== undefined) await fleet.redis.set(budgetKeys(fleet.keys).cap, String(flags.fleetMaxCost));
  let ids: Set<string>;
  try {
    ids = new Set(await addJobs(fleet.queue, jobs, { replace }));
  } catch (err) {
    await fleet.close();
    throw err;
  }
  const worker = startWorker(
    { url: flags.redisUrl, name: flags.queue, concurrency: flags.concurrency, workerName: environment.worker, lockMs: flags.lockMs },
    (job, context) => runFleetJob(job, context, environment),
    (line) => io.stderr.write(`keel fleet: ${line}\n`),
  );
  let stopped = false;
  const remove = io.onInterrupt(() => {
    stopped = true;
  });
  try {
    for (;;) {
      const all = await fleetResults(fleet.queue);
      const mine = all.results.filter((r) => ids.has(r.jobId));
      const failed = all.failed.filter((f) => ids.has(f.jobId));
      if (mine.length + failed.length >= ids.size || stopped) {
        const all = printResults(mine, failed, flags.json, io.stdout);
        return stopped ? 130 : resultsExitCode(all);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    remove();
    await worker.close(stopped);
    await fleet.close(stopped);
  }
}

async function status(flags: WorkerFlags & { redisUrl: string }, io: FleetIo): Promise<number> {
  const fleet = await openFleet(flags.redisUrl, flags.queue);
  try {
    const s = await fleetStatus(fleet);
    const budget = redisFleetBudget(fleet.redis, fleet.keys);
    const cap = await fleet.redis.get(budgetKeys(fleet.keys).cap);
    printStatus(
      { queue: flags.queue, ...s, spentUsd: await budget.spent(), capUsd: cap === null ? null : Number(cap) },
      flags.json,
      io.stdout,
    );
    return 0;
  } finally {
    await fleet.close();
  }
}

async function results(flags: WorkerFlags & { redisUrl: string }, io: FleetIo): Promise<number> {
  const fleet = await openFleet(flags.redisUrl, flags.queue);
  try {
    const all = await fleetResults(fleet.queue);
    printResults(all.results, all.failed, flags.json, io.stdout);
    return 0;
  } finally {
    await fleet.close();
  }
}

/** Says once which of this process's variables jobs' commands will not see. */
function jobEnvironment(flags: WorkerFlags, io: FleetIo, fleet: FleetConnection | undefined, allowed: AllowedFolders): JobEnvironment {
  tellWithheld(io.env, flags.passEnv, io.stderr);
  return {
    flags,
    allowed,
    gate: fleet ? redisGate(fleet.redis, fleet.keys, flags.gate) : localGate(flags.gate),
    budget: fleet ? redisFleetBudget(fleet.redis, fleet.keys) : localFleetBudget(flags.fleetMaxCost),
    env: io.env,
    stderr: io.stderr,
    onSandboxUnavailable: sandboxNotice(flags.sandbox, io.stderr, NO_SANDBOX_JOBS),
    worker: fleet ? workerName() : 'local',
  };
}
