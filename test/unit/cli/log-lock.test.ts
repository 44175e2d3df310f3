// A second writer of a task log is refused while the first goes on: `keel resume LOG` during the
// run that writes LOG exits 2 saying who holds it, and adds nothing to the log, which the run
// then ends whole; the lock goes with the run.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { lockFileOf } from '../../../src/node/log-lock.js';
import { existingLogKey } from '../../../src/node/log-seal.js';
import type { ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { keelIn, slowModel, startSlowRun } from '../../support/slow-run.js';

function finished(child: ReturnType<typeof keelIn>): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('a task log with one writer', function () {
  this.timeout(120_000);
  let server: ModelServer;

  before(async () => {
    server = await slowModel();
  });
  after(() => server.close());

  it('refuses keel resume LOG while the run writing LOG goes on, and leaves the log to it', async () => {
    const home = scratchDir('lock-cli');
    const workspace = path.join(home, 'ws');
    fs.mkdirSync(workspace);
    const log = path.join(home, 'task.jsonl');
    const run = startSlowRun(server, home, workspace, log);
    await run.streaming;
    const second = await finished(keelIn(home, workspace, ['resume', log, '--base-url', server.anthropicBaseURL]));
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, new RegExp(`^keel: .*task\\.jsonl is being written by another Keel \\(pid ${run.child.pid} on .*\\n$`));
    run.child.kill('SIGINT');
    assert.equal((await run.ended).code, 130);
    const loaded = loadLog(log, existingLogKey({ XDG_CONFIG_HOME: path.join(home, 'config') }));
    assert.equal(loaded.seal.type, 'verified', 'one chain: nobody else wrote to it');
    assert.equal(loaded.events.filter((e) => e.type === 'run_resumed').length, 0);
    assert.equal(fs.existsSync(lockFileOf(log)), false, 'the lock went with the run');
  });
});
