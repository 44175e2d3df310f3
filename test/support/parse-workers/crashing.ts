// A parse worker that crashes mid-parse (test/unit/codeintel/parse-pool.test.ts): it takes five
// files from the shared counter as soon as it starts, before the list arrives, then exits
// without reporting them.
import { parentPort, workerData } from 'node:worker_threads';
import { takeNext, type WorkerSetup } from '../../../src/codeintel/parse-protocol.js';

const counter = new Int32Array((workerData as WorkerSetup).counter);
for (let n = 0; n < 5; n++) takeNext(counter);
parentPort?.once('message', () => process.exit(3));
