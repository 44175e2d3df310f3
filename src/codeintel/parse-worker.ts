// A parse worker of the code index (started by parse-pool.ts; bundled as dist/parse-worker.js).
// It starts tree-sitter's runtime while it waits for its list (grammars load on first use, once),
// then takes files from the shared counter until none is left, posting outcomes in small
// batches. A file it cannot parse is reported as failed, never dropped: the main thread parses it
// again itself. While it parses a file it says which, and since when, in its busy slot, so the
// pool can stop it when a file overruns (parse-pool.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { startRuntime } from './grammars.js';
import { parseWorkspaceFile } from './parse-file.js';
import {
  markBusy,
  type PackedOutcome,
  type ParseJob,
  packOutcome,
  takeNext,
  type WorkerMessage,
  type WorkerSetup,
} from './parse-protocol.js';

/** Outcomes per message: fewer messages, and a batch small enough to keep the main thread fed. */
const BATCH = 16;

const setup = workerData as WorkerSetup;
const counter = new Int32Array(setup.counter);
const busy = new Int32Array(setup.busy);
const post = (message: WorkerMessage) => parentPort?.postMessage(message);

async function work(paths: readonly string[]): Promise<void> {
  let indexes: number[] = [];
  let outcomes: PackedOutcome[] = [];
  const flush = () => {
    if (indexes.length > 0) post({ type: 'outcomes', indexes, outcomes });
    indexes = [];
    outcomes = [];
  };
  for (let i = takeNext(counter); i < paths.length; i = takeNext(counter)) {
    markBusy(busy, setup.slot, setup.since, i);
    try {
      outcomes.push(packOutcome(await parseWorkspaceFile(setup.root, paths[i]!)));
      indexes.push(i);
    } catch {
      post({ type: 'failed', index: i });
    }
    markBusy(busy, setup.slot, setup.since, undefined);
    if (indexes.length >= (setup.reportEach ? 1 : BATCH)) flush();
  }
  flush();
  post({ type: 'done' });
}

// A runtime that fails to start fails each file's parse later, and each is reported.
startRuntime().catch(() => undefined);
parentPort?.once('message', (job: ParseJob) => void work(job.paths));
