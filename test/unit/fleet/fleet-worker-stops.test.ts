// A `keel fleet work` process on a real redis-server, as a CI runner or an operator treats it:
// SIGTERM once lets its running job finish, twice stops it at once; a Redis that goes away
// mid-job (stopped, then started again on its port with its data) is said once and waited out,
// with no stack trace and the job run once; `fleet status` names each worker with its job and a
// dead worker's job as stalled.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { jobLines, tinyWorkspace } from '../../support/fleet-jobs.js';
import { fleetModel } from '../../support/fleet-model.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { spawnGroup, waitFor, type GroupProcess } from '../../support/processes.js';
import { requireRedis, startRedis, type RedisServer } from '../../support/redis-server.js';
import { scratchDir } from '../../support/scratch.js';
import { keel } from '../../support/keel-timed.js';

const ROOT = path.resolve(__dirname, '../../..');
/** A stack trace line, as BullMQ and Node print them. */
const TRACE = /^\s+at /m;

describe('keel fleet work stops and survives as told', function () {
  this.timeout(300_000);
  let redis: (RedisServer & { port: number; dir: string }) | undefined;
  let server: ModelServer | undefined;
  const workers: GroupProcess[] = [];
  const source = tinyWorkspace();
  let jobNumber = 0;
  /** How long each model answer takes: long enough for a job (two answers) to be acted on mid-way. */
  let replyMs = 2500;

  before(async function () {
    requireRedis(this);
    redis = await startRedis({ persist: true });
    const model = fleetModel(0);
    server = await startModelServer(async (req, i) => {
      await new Promise((r) => setTimeout(r, replyMs));
      return model.respond(req, i);
    });
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await server?.close();
    await redis?.stop();
  });

  function startWorker(dir: string, lockSeconds = 20): GroupProcess {
    const args = ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), 'fleet', 'work', '--redis', redis!.url];
    args.push('--base-url', server!.anthropicBaseURL, '--dir', dir, '--lock-seconds', String(lockSeconds));
    args.push('--allow-workspace', source, '--approve', 'read,write', '--keep-workspaces');
    const env = { ...process.env, XDG_CONFIG_HOME: scratchDir('fw-cfg'), ANTHROPIC_API_KEY: 'k' };
    const worker = spawnGroup(process.execPath, args, { cwd: ROOT, env });
    workers.push(worker);
    return worker;
  }

  /** Adds one passing job and waits until `dir`'s worker has it under way; returns its id. */
  async function jobUnderWay(dir: string): Promise<string> {
    const id = `job-${++jobNumber}`;
    const file = path.join(scratchDir('fw-jobs'), 'jobs.jsonl');
    fs.writeFileSync(file, `${jobLines(source, ['pass']).replace('job-1', id)}\n`);
    const added = await keel(['fleet', 'add', '--redis', redis!.url, file]);
    assert.equal(added.code, 0, added.stderr);
    await waitFor(`${id} under way`, () => attempts(dir, id).some((a) => fs.existsSync(path.join(a, 'log.jsonl'))), {
      timeoutMs: 60_000,
      intervalMs: 50,
    });
    return id;
  }

  /** The folders of a job's attempts on the worker of `dir` (`<attempt>-<random>`). */
  function attempts(dir: string, id: string): string[] {
    const jobs = path.join(dir, 'jobs', id);
    return fs.existsSync(jobs) ? fs.readdirSync(jobs).map((a) => path.join(jobs, a)) : [];
  }

  const finished = (dir: string, id: string) => attempts(dir, id).some((a) => fs.existsSync(path.join(a, 'result.json')));

  it('the first SIGTERM lets the running job finish, then exits 130', async () => {
    const dir = scratchDir('fw-one');
    const worker = startWorker(dir);
    const id = await jobUnderWay(dir);
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 130, worker.output());
    assert.ok(finished(dir, id), `the job finished first:\n${worker.output()}`);
    assert.match(worker.output(), /finishing the running jobs/);
    assert.doesNotMatch(worker.output(), TRACE);
  });

  it('a second SIGTERM stops at once, leaving the job to another worker', async () => {
    const dir = scratchDir('fw-two');
    const worker = startWorker(dir);
    const id = await jobUnderWay(dir);
    worker.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 130, worker.output());
    assert.doesNotMatch(worker.output(), TRACE);
    // The stopped attempt is not the job's result: the next worker runs it again once the lock lapses.
    const next = scratchDir('fw-next');
    startWorker(next, 2);
    await waitFor('the job run again', () => finished(next, id), { timeoutMs: 90_000 });
    const listed = await keel(['fleet', 'results', '--redis', redis!.url, '--json']);
    const record = (JSON.parse(listed.stdout) as { jobId: string; attempt: number; result: { status: string } }[]).find(
      (r) => r.jobId === id,
    );
    assert.equal(record?.result.status, 'done', listed.stdout);
    assert.ok(record.attempt >= 2, `attempt ${record.attempt}`);
  });

  it('waits out a Redis outage mid-job: said once, no trace, the job run once', async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    const dir = scratchDir('fw-outage');
    const worker = startWorker(dir);
    const id = await jobUnderWay(dir);
    await redis!.stop();
    await new Promise((r) => setTimeout(r, 4000));
    redis = await startRedis({ port: redis!.port, dir: redis!.dir, persist: true });
    await waitFor(`${id}'s result`, () => finished(dir, id), { timeoutMs: 90_000 });
    const status = await waitFor('the job completed in the queue', async () => {
      const s = await keel(['fleet', 'results', '--redis', redis!.url, '--json']);
      const mine = (JSON.parse(s.stdout || '[]') as { jobId: string; attempt: number }[]).filter((r) => r.jobId === id);
      return mine.length ? mine : undefined;
    });
    assert.deepEqual(
      status.map((r) => r.attempt),
      [1],
      'one result, from the first attempt',
    );
    assert.equal(fs.readdirSync(path.join(dir, 'jobs', id)).length, 1, 'the job was not started again');
    const output = worker.output();
    assert.doesNotMatch(output, TRACE, output);
    assert.equal(output.match(/lost Redis at redis:\/\/127\.0\.0\.1/g)?.length, 1, output);
    assert.match(output, /is back/);
  });

  it('keel fleet status names each worker with its job, and a dead worker’s job as stalled', async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    // The job outlasts two `keel fleet status` runs on a loaded machine.
    replyMs = 30_000;
    const dir = scratchDir('fw-status');
    const worker = startWorker(dir, 60);
    const id = await jobUnderWay(dir);
    const running = await keel(['fleet', 'status', '--redis', redis!.url]);
    assert.equal(running.code, 0, running.stderr);
    assert.match(running.stdout, new RegExp(`^worker [^\\s]+:${worker.child.pid}: running ${id}$`, 'm'), running.stdout);
    worker.child.kill('SIGKILL');
    await worker.exited;
    const after = await keel(['fleet', 'status', '--redis', redis!.url, '--json']);
    const report = JSON.parse(after.stdout) as { stalled: { jobId: string }[]; outcomes: Record<string, number> };
    assert.deepEqual(
      report.stalled.map((s) => s.jobId),
      [id],
    );
    const listed = await keel(['fleet', 'results', '--redis', redis!.url, '--json']);
    const counted: Record<string, number> = { done: 0, failed: 0, refused: 0, over_budget: 0, stopped: 0 };
    for (const r of JSON.parse(listed.stdout) as { result: { status: string } }[]) counted[r.result.status]!++;
    assert.deepEqual(report.outcomes, counted, 'status and results count the same jobs');
  });
});
