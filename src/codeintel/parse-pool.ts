// Parses many files at once on the machine's idle cores: a few worker threads (parse-worker.ts),
// each loading tree-sitter and its grammars once, take files from one shared counter (the main
// thread may take them too; the code index leaves its own thread to the task, see PoolMode). Workers may start while the walk is still listing (ParsePool.start), so their
// startup overlaps it. Outcomes come back by index and the caller stores them in the walk's
// order, so the index is the same whoever parsed what. A file a worker took and never reported
// (the worker crashed, its grammar failed) is parsed on the main thread at the end: the pool can
// lose time, never a file.
//
// No file holds a thread for long (parse-limits.ts). The main thread gives each file a short
// deadline and lets timers and I/O in after each one, so a task's first request is never queued
// behind the index; a file that needs longer is handed to a worker, started for it when no pool
// runs. A watchdog stops a worker busy with one file past WORKER_STOP_MS (what no deadline check
// reached), counts the file as given up, and starts another worker in its place.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseWorkspaceFile } from './parse-file.js';
import { deadlineIn, PARSE_FILE_MS } from './parse-limits.js';
import {
  type FileOutcome,
  type PackedOutcome,
  type ParseJob,
  takeNext,
  unpackOutcome,
  type WorkerMessage,
  type WorkerSetup,
} from './parse-protocol.js';

/**
 * Below this many files to parse, starting a worker (a thread, tree-sitter's runtime and a
 * grammar) costs more than it saves: see the break-even in bench/codeintel-pool.ts.
 */
export const POOL_MIN_FILES = 400;
const MAX_WORKERS = 4;
/** What one file may hold the main thread for; past it the file goes to a worker. */
const MAIN_THREAD_FILE_MS = 300;
/** A worker still on one file this long after starting it is stopped (its own deadline is PARSE_FILE_MS). */
const WORKER_STOP_MS = PARSE_FILE_MS + 2000;
const WATCH_EVERY_MS = 250;
/** Workers started in place of stopped ones, at most: past it, what is left is parsed by parseFiles. */
const MAX_REPLACEMENTS = 4;

/** Workers for a parse of `files` files: none on one core or for few files; else one per spare core, at most 4. */
export function poolSize(files: number, cores = availableParallelism()): number {
  if (files < POOL_MIN_FILES || cores <= 1) return 0;
  return Math.min(cores - 1, MAX_WORKERS);
}

export interface ParsedFiles {
  /** By index of `paths`; undefined only when the signal stopped the parse first. */
  outcomes: (FileOutcome | undefined)[];
  /** Files whose outcome came from a worker. */
  byWorkers: number;
  /** Files a worker took but did not report, parsed again on this thread. */
  recovered: number;
}

/**
 * Who parses: `shared`, this thread beside the workers; `workers`, only the workers, this thread
 * parsing after them what they lost (the code index: its thread is the task's, and a file parsed
 * there delays every step of a task starting meanwhile); `alone`, only the workers, nothing
 * parsed again (the pool that takes the files this thread gave up for time).
 */
export type PoolMode = 'shared' | 'workers' | 'alone';

/** Worker threads for one parse: started early, given the list once, stopped after. */
export class ParsePool {
  private readonly counter = new Int32Array(new SharedArrayBuffer(4));
  private readonly busy: Int32Array;
  private readonly since = Date.now();
  private readonly workers: (Worker | undefined)[] = [];
  /** Each worker's end; a worker started in place of a stopped one adds its own. */
  private readonly finished: Promise<void>[] = [];
  private job: ParseJob | undefined;
  private outcomes: (FileOutcome | undefined)[] = [];
  private reported = 0;
  private onParsed: (() => void) | undefined;

  /**
   * Starts `size` workers reading files under `root`; `script` replaces the worker (tests start
   * failing ones).
   */
  constructor(
    private readonly root: string,
    size: number,
    private readonly script: string = workerScript(),
    private readonly mode: PoolMode = 'shared',
  ) {
    this.busy = new Int32Array(new SharedArrayBuffer(8 * (size + MAX_REPLACEMENTS)));
    for (let n = 0; n < size; n++) this.start();
  }

  get size(): number {
    return this.workers.filter(Boolean).length;
  }

  /** Parses `paths` on the workers and this thread; the pool is stopped after. */
  async parse(
    root: string,
    paths: readonly string[],
    signal?: AbortSignal,
    mainThreadMs?: number,
    onParsed?: () => void,
  ): Promise<ParsedFiles> {
    this.outcomes = new Array(paths.length).fill(undefined);
    this.onParsed = onParsed;
    this.job = { type: 'parse', paths };
    for (const w of this.workers) w?.postMessage(this.job);
    const aborted = () => signal?.aborted === true;
    const watchdog = setInterval(() => this.watch(), WATCH_EVERY_MS);
    const slow: number[] = [];
    try {
      if (this.mode === 'shared')
        for (let i = takeNext(this.counter); i < paths.length && !aborted(); i = takeNext(this.counter)) {
          const outcome = await parseOnThisThread(root, paths[i]!, mainThreadMs);
          if (outcome.type === 'skipped' && outcome.reason === 'time') slow.push(i);
          else this.outcomes[i] = outcome;
          onParsed?.();
        }
      if (!aborted()) for (let n = 0; n < this.finished.length; n++) await this.finished[n];
    } finally {
      clearInterval(watchdog);
      await this.stop();
    }
    const outcomes = this.outcomes;
    // What the workers lost is parsed here, but by the pool of slow files: those are given up.
    let recovered = 0;
    for (let i = 0; i < paths.length && !aborted() && this.mode !== 'alone'; i++) {
      if (outcomes[i] || slow.includes(i)) continue;
      const outcome = await parseOnThisThread(root, paths[i]!, mainThreadMs);
      if (outcome.type === 'skipped' && outcome.reason === 'time') slow.push(i);
      else outcomes[i] = outcome;
      recovered++;
    }
    const byWorkers = slow.length > 0 && !aborted() ? await parseInWorker(root, paths, slow, outcomes, this.script, signal) : 0;
    return { outcomes, byWorkers: this.reported + byWorkers, recovered };
  }

  /** Ends the workers (a parse not needed after all, or done): no file is taken after this. */
  async stop(): Promise<void> {
    Atomics.store(this.counter, 0, 1 << 30); // past any list, with room for the workers still adding
    await Promise.all(this.workers.map((w) => w?.terminate()));
  }

  private start(): void {
    const slot = this.workers.length;
    const setup: WorkerSetup = {
      root: this.root,
      counter: this.counter.buffer as SharedArrayBuffer,
      busy: this.busy.buffer as SharedArrayBuffer,
      slot,
      since: this.since,
      reportEach: this.mode === 'alone',
    };
    const worker = spawn(this.script, setup);
    this.workers[slot] = worker;
    if (!worker) return; // this thread parses what it would have
    this.finished.push(
      new Promise<void>((resolve) => {
        worker.on('message', (message: WorkerMessage) => {
          if (message.type === 'outcomes') this.take(message.indexes, message.outcomes);
          else if (message.type === 'done') resolve();
        });
        // A worker that fails to start or crashes: what it took is parsed again by parseFiles.
        worker.on('error', () => resolve());
        worker.on('exit', () => resolve());
      }),
    );
    if (this.job) worker.postMessage(this.job);
  }

  /** Stops each worker that has been on one file too long; the file is given up, another worker takes the rest. */
  private watch(): void {
    const now = Date.now() - this.since;
    this.workers.forEach((worker, slot) => {
      const index = Atomics.load(this.busy, 2 * slot) - 1;
      if (!worker || index < 0 || now - Atomics.load(this.busy, 2 * slot + 1) < WORKER_STOP_MS) return;
      this.workers[slot] = undefined;
      this.outcomes[index] = { type: 'skipped', reason: 'time' };
      void worker.terminate();
      if (this.workers.length < this.busy.length / 2) this.start();
    });
  }

  private take(indexes: readonly number[], outcomes: readonly PackedOutcome[]): void {
    indexes.forEach((index, k) => {
      this.outcomes[index] = unpackOutcome(outcomes[k]!);
      this.onParsed?.();
    });
    this.reported += indexes.length;
  }
}

export interface ParseOptions {
  /** The pool started for this parse, if any. */
  pool?: ParsePool | undefined;
  signal?: AbortSignal | undefined;
  /** The worker script for files this thread gives up (tests give failing ones). */
  script?: string | undefined;
  /** What one file may hold this thread for (MAIN_THREAD_FILE_MS; tests hand every file over with 0). */
  mainThreadMs?: number | undefined;
  /** Called once per file whose outcome is known, whoever parsed it (progress). */
  onParsed?: (() => void) | undefined;
}

/**
 * Parses `paths` in order on this thread, or with the pool when one was started. Files this
 * thread gives up for time are parsed again by one worker, with the whole deadline.
 */
export async function parseFiles(root: string, paths: readonly string[], o: ParseOptions = {}): Promise<ParsedFiles> {
  if (o.pool) return o.pool.parse(root, paths, o.signal, o.mainThreadMs, o.onParsed);
  const outcomes: (FileOutcome | undefined)[] = new Array(paths.length).fill(undefined);
  const slow: number[] = [];
  for (let i = 0; i < paths.length && !o.signal?.aborted; i++) {
    const outcome = await parseOnThisThread(root, paths[i]!, o.mainThreadMs);
    if (outcome.type === 'skipped' && outcome.reason === 'time') slow.push(i);
    else outcomes[i] = outcome;
    o.onParsed?.();
  }
  const handed = slow.length > 0 && !o.signal?.aborted;
  const byWorkers = handed ? await parseInWorker(root, paths, slow, outcomes, o.script ?? workerScript(), o.signal) : 0;
  return { outcomes, byWorkers, recovered: 0 };
}

/** One file on this thread under the short deadline, then a turn for timers and I/O. */
async function parseOnThisThread(root: string, path: string, ms = MAIN_THREAD_FILE_MS): Promise<FileOutcome> {
  const outcome = await parseWorkspaceFile(root, path, deadlineIn(ms));
  await new Promise((resolve) => setImmediate(resolve));
  return outcome;
}

/**
 * The files at `indexes` of `paths` parsed by one worker only, into `outcomes`; a file no worker
 * could parse (none started) is given up for time. Returns how many the worker parsed.
 */
async function parseInWorker(
  root: string,
  paths: readonly string[],
  indexes: readonly number[],
  outcomes: (FileOutcome | undefined)[],
  script: string,
  signal: AbortSignal | undefined,
): Promise<number> {
  const slow = indexes.map((i) => paths[i]!);
  const pool = new ParsePool(root, 1, script, 'alone');
  const parsed = await pool.parse(root, slow, signal);
  indexes.forEach((i, k) => {
    outcomes[i] = parsed.outcomes[k] ?? (signal?.aborted ? undefined : { type: 'skipped', reason: 'time' });
  });
  return parsed.byWorkers;
}

/** The parse worker: beside the bundle that runs this code (dist/parse-worker.js), else its TypeScript source. */
function workerScript(): string {
  const bundled = join(__dirname, 'parse-worker.js');
  return existsSync(bundled) ? bundled : join(__dirname, 'parse-worker.ts');
}

/** A worker running `script` (undefined when none can start); a TypeScript script (from source, under tsx) loads tsx's require hook first. */
function spawn(script: string, workerData: WorkerSetup): Worker | undefined {
  const file = JSON.stringify(script);
  const boot = `const load = require('node:module').createRequire(${file}); load('tsx/cjs'); load(${file});`;
  try {
    return script.endsWith('.ts') ? new Worker(boot, { eval: true, workerData }) : new Worker(script, { workerData });
  } catch {
    return undefined;
  }
}
