// Parses many files at once on the machine's idle cores: a few worker threads (parse-worker.ts),
// each loading tree-sitter and its grammars once, take files from one shared counter while the
// main thread takes them too, so on a loaded machine it costs about what the single-thread
// build does. Workers may start while the walk is still listing (ParsePool.start), so their
// startup overlaps it. Outcomes come back by index and the caller stores them in the walk's
// order, so the index is the same whoever parsed what. A file a worker took and never reported
// (the worker crashed, its grammar failed) is parsed on the main thread at the end: the pool can
// lose time, never a file.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseWorkspaceFile } from './parse-file.js';
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
/** The main thread lets workers' outcomes in after this many of its own files. */
const YIELD_EVERY = 8;

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

/** Worker threads for one parse: started early, given the list once, stopped after. */
export class ParsePool {
  private readonly counter = new Int32Array(new SharedArrayBuffer(4));
  private readonly workers: Worker[] = [];
  private readonly finished: Promise<void>[] = [];
  private outcomes: (FileOutcome | undefined)[] = [];
  private reported = 0;

  /** Starts `size` workers reading files under `root`; `script` replaces the worker (tests start failing ones). */
  constructor(root: string, size: number, script = workerScript()) {
    const setup: WorkerSetup = { root, counter: this.counter.buffer as SharedArrayBuffer };
    for (let n = 0; n < size; n++) {
      const worker = spawn(script, setup);
      if (!worker) continue; // this thread parses what it would have
      this.workers.push(worker);
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
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Parses `paths` on the workers and this thread; the pool is stopped after. */
  async parse(root: string, paths: readonly string[], signal?: AbortSignal): Promise<ParsedFiles> {
    this.outcomes = new Array(paths.length).fill(undefined);
    const job: ParseJob = { type: 'parse', paths };
    for (const w of this.workers) w.postMessage(job);
    const aborted = () => signal?.aborted === true;
    try {
      let mine = 0;
      for (let i = takeNext(this.counter); i < paths.length && !aborted(); i = takeNext(this.counter)) {
        this.outcomes[i] = await parseWorkspaceFile(root, paths[i]!);
        if (++mine % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      if (!aborted()) await Promise.all(this.finished);
    } finally {
      await this.stop();
    }
    const outcomes = this.outcomes;
    let recovered = 0;
    for (let i = 0; i < paths.length && !aborted(); i++) {
      if (outcomes[i]) continue;
      outcomes[i] = await parseWorkspaceFile(root, paths[i]!);
      recovered++;
    }
    return { outcomes, byWorkers: this.reported, recovered };
  }

  /** Ends the workers (a parse not needed after all, or done): no file is taken after this. */
  async stop(): Promise<void> {
    Atomics.store(this.counter, 0, 1 << 30); // past any list, with room for the workers still adding
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private take(indexes: readonly number[], outcomes: readonly PackedOutcome[]): void {
    indexes.forEach((index, k) => {
      this.outcomes[index] = unpackOutcome(outcomes[k]!);
    });
    this.reported += indexes.length;
  }
}

/** Parses `paths` in order on this thread, or with `pool` when one was started. */
export async function parseFiles(root: string, paths: readonly string[], pool?: ParsePool, signal?: AbortSignal): Promise<ParsedFiles> {
  if (pool) return pool.parse(root, paths, signal);
  const outcomes: (FileOutcome | undefined)[] = new Array(paths.length).fill(undefined);
  for (let i = 0; i < paths.length && !signal?.aborted; i++) outcomes[i] = await parseWorkspaceFile(root, paths[i]!);
  return { outcomes, byWorkers: 0, recovered: 0 };
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
