// What CI cancellation, `timeout`, Docker and Kubernetes send (SIGTERM) and a closed terminal
// (SIGHUP) stop a run as Ctrl+C does: exit 130, the result record printed, `run_cancelled` last in
// a log that stays whole — never Node's default signal death (exit 143, nothing printed).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLog } from '../../../src/node/jsonl-store.js';
import type { ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { slowModel, startSlowRun } from '../../support/slow-run.js';

describe('keel run stopped by a signal', function () {
  this.timeout(120_000);
  let server: ModelServer;

  before(async () => {
    server = await slowModel();
  });
  after(() => server.close());

  for (const signal of ['SIGTERM', 'SIGHUP'] as const)
    it(`${signal} stops like Ctrl+C: exit 130, a result record, run_cancelled in the log`, async () => {
      const home = scratchDir(`signal-${signal}`);
      const workspace = path.join(home, 'ws');
      fs.mkdirSync(workspace);
      const log = path.join(home, 'task.jsonl');
      const run = startSlowRun(server, home, workspace, log);
      await run.streaming;
      run.child.kill(signal);
      const stopped = await run.ended;
      assert.equal(stopped.signal, null, 'not killed by the signal');
      assert.equal(stopped.code, 130);
      const last = stopped.lines.at(-1);
      assert.equal(last?.type, 'result');
      assert.equal(last?.result?.status, 'stopped');
      const loaded = loadLog(log);
      assert.equal(loaded.torn, undefined);
      assert.equal(loaded.events.at(-1)?.type, 'run_cancelled');
    });
});
