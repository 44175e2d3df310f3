// A parse worker whose grammar never loads (test/unit/codeintel/parse-pool.test.ts): it reports
// every file it takes as failed, as the real worker does when a parse throws.
import { parentPort, workerData } from 'node:worker_threads';
import { type ParseJob, takeNext, type WorkerMessage, type WorkerSetup } from '../../../src/codeintel/parse-protocol.js';

const counter = new Int32Array((workerData as WorkerSetup).counter);
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
parentPort?.once('message', (job: ParseJob) => {
  for (let i = takeNext(counter); i < job.paths.length; i = takeNext(counter)) post({ type: 'failed', index: i });
  post({ type: 'done' });
});
