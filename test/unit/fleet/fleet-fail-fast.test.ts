// Fleets a pipeline can rely on, with real `keel fleet` processes: a Redis that does not answer
// is one line naming its URL and exit 2 for every command (never a hang or a trace); a job id
// used again is refused unless --replace; `fleet run` exits 1 when a job failed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { jobLines, tinyWorkspace } from '../../support/fleet-jobs.js';
import { fleetModel } from '../../support/fleet-model.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { freePort } from '../../support/processes.js';
import { requireRedis, startRedis, type RedisServer } from '../../support/redis-server.js';
import { keel } from '../../support/keel-timed.js';
import { scratchDir } from '../../support/scratch.js';

/** Far above "a few seconds" of Redis waiting, even on a loaded machine. */
const HANG_MS = 90_000;

describe('keel fleet fails fast', function () {
  this.timeout(4 * HANG_MS);

  it('says an unreachable Redis in one line naming the URL and exits 2, for every command', async () => {
    const url = `redis://:hunter2@127.0.0.1:${await freePort()}`;
    const jobs = path.join(scratchDir('ff-jobs'), 'jobs.jsonl');
    fs.writeFileSync(jobs, `${jobLines(tinyWorkspace(), ['pass'])}\n`);
    const commands = [['status'], ['results'], ['add', jobs], ['run', jobs], ['work']];
    const runs = await Promise.all(commands.map((c) => keel(['fleet', ...c, '--redis', url])));
    runs.forEach((run, i) => {
      const what = `keel fleet ${commands[i]![0]}`;
      assert.equal(run.killed, false, `${what} hung`);
      assert.equal(run.code, 2, `${what}: ${run.stderr}`);
      const lines = run.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `${what} printed more than one line:\n${run.stderr}`);
      assert.match(lines[0]!, /^keel: Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+: the connection was refused/);
      assert.ok(!run.stderr.includes('hunter2'), 'the password is not shown');
    });
  });
});

describe('keel fleet jobs and exit codes', function () {
  this.timeout(4 * HANG_MS);
  let redis: RedisServer | undefined;
  let server: ModelServer | undefined;
  before(function () {
    requireRedis(this);
  });
  after(async () => {
    await server?.close();
    await redis?.stop();
  });

  it('refuses a job id already in the queue, and replaces it with --replace', async () => {
    redis = await startRedis();
    const add = (...extra: string[]) => keel(['fleet', 'add', '--redis', redis!.url, '--id', 'fix-1', ...extra, 'do it']);
    assert.equal((await add()).code, 0);
    const again = await add();
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, /already has the job "fix-1" \(waiting\).*--replace/);
    const replaced = await add('--replace', '--max-turns', '3');
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.match(replaced.stdout, /added 1 job\(s\) to "keel": fix-1/);
  });

  it('keel fleet run exits 1 when a job failed, 0 when every job is done', async () => {
    server = await startModelServer(fleetModel(10).respond);
    const source = tinyWorkspace();
    const files = ['pass', 'fail'].map((kind) => {
      const file = path.join(scratchDir('ff-jobs'), `${kind}.jsonl`);
      fs.writeFileSync(file, `${jobLines(source, kind === 'pass' ? ['pass'] : ['pass', 'fail'])}\n`);
      return file;
    });
    const flags = ['--base-url', server.anthropicBaseURL, '--dir', scratchDir('ff-dir'), '--approve', 'read,write'];
    const [passed, failed] = await Promise.all(files.map((f) => keel(['fleet', 'run', f, ...flags])));
    assert.equal(passed!.code, 0, passed!.stdout + passed!.stderr);
    assert.equal(failed!.code, 1, failed!.stdout + failed!.stderr);
    assert.match(failed!.stdout, /2 job\(s\): 1 done, 1 failed/);
  });
});
