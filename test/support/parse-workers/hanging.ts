// A parse worker that hangs on any file named hang*.ts (test/unit/codeintel/parse-limits.test.ts),
// as a parse no deadline check reaches would: it says which file it is busy with, as the real
// worker does, and never answers. Every other file it parses and reports at once.
import { parentPort, workerData } from 'node:worker_threads';
import { parseWorkspaceFile } from '../../../src/codeintel/parse-file.js';
import {
  markBusy,
  packOutcome,
  type ParseJob,
  takeNext,
  type WorkerMessage,
  type WorkerSetup,
} from '../../../src/codeintel/parse-protocol.js';

const setup = workerData as WorkerSetup;
const counter = new Int32Array(setup.counter);
const busy = new Int32Array(setup.busy);
const post = (message: WorkerMessage) => parentPort?.postMessage(message);

parentPort?.once('message', async (job: ParseJob) => {
  for (let i = takeNext(counter); i < job.paths.length; i = takeNext(counter)) {
    markBusy(busy, setup.slot, setup.since, i);
    if (/(^|\/)hang[^/]*\.ts$/.test(job.paths[i]!)) for (;;);
    post({ type: 'outcomes', indexes: [i], outcomes: [packOutcome(await parseWorkspaceFile(setup.root, job.paths[i]!))] });
    markBusy(busy, setup.slot, setup.since, undefined);
  }
  post({ type: 'done' });
});
