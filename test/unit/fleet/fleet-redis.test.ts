// The fleet on a real redis-server (127.0.0.1, its own port and folder): three `keel fleet work`
// processes and the model stand-in run 60 jobs — passing, failing and over-budget — while one
// worker is killed with SIGKILL in the middle of a job. Every job ends with exactly one result,
// none ran twice to completion, the killed worker's job was run again from a fresh copy, and the
// stand-in never had more requests in flight than the fleet's shared limit.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectFleet, type FleetConnection } from '../../../src/fleet/index.js';
import { fleetModel } from '../../support/fleet-model.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { spawnGroup, waitFor, type GroupProcess } from '../../support/processes.js';
import { requireRedis, startRedis, type RedisServer } from '../../support/redis-server.js';
import { scratchDir } from '../../support/scratch.js';
import { jobLines, tinyWorkspace } from '../../support/fleet-jobs.js';

const ROOT = path.resolve(__dirname, '../../..');
const MODEL_LIMIT = 3;

interface Kept {
  jobId: string;
  attempt: number;
  result: { status: string };
}

describe('keel fleet on Redis (workers, kill -9, shared limit)', function () {
  this.timeout(120_000);
  let redis: RedisServer | undefined;
  let server: ModelServer | undefined;
  const workers: GroupProcess[] = [];
  const env = { XDG_CONFIG_HOME: scratchDir('fr-cfg'), XDG_CACHE_HOME: scratchDir('fr-cache'), ANTHROPIC_API_KEY: 'test-key' };

  before(function () {
    requireRedis(this);
  });
  let fleet: FleetConnection | undefined;
  const queue = () => (fleet ??= connectFleet(redis!.url, 'keel'));
  after(async () => {
    await fleet?.close();
    await Promise.all(workers.map((w) => w.stop()));
    await server?.close();
    await redis?.stop();
  });

  function startWorker(dir: string, base: string, url: string, allowed: string): GroupProcess {
    const args = ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), 'fleet', 'work', '--redis', url, '--concurrency', '4'];
    args.push(
      '--base-url',
      base,
      '--model-concurrency',
      String(MODEL_LIMIT),
      '--dir',
      dir,
      '--lock-seconds',
      '2',
      '--allow-workspace',
      allowed,
      '--approve',
      'read,write',
    );
    return spawnGroup(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } });
  }

  it('ends 60 jobs with exactly one result each, through a kill -9, never over the model limit', async () => {
    redis = await startRedis();
    const model = fleetModel(30);
    server = await startModelServer(model.respond);
    const kinds = Array.from({ length: 60 }, (_, i) => (i % 6 === 4 ? 'fail' : i % 6 === 5 ? 'over' : 'pass'));
    const jobsFile = path.join(scratchDir('fr-jobs'), 'jobs.jsonl');
    const source = tinyWorkspace();
    fs.writeFileSync(jobsFile, `${jobLines(source, kinds)}\n`);
    const dirs = [scratchDir('fr-w1'), scratchDir('fr-w2'), scratchDir('fr-w3')];
    for (const dir of dirs) workers.push(startWorker(dir, server.anthropicBaseURL, redis.url, source));
    const added = await spawnKeel(['fleet', 'add', jobsFile, '--redis', redis.url], ROOT, env);
    assert.equal(added.code, 0, added.stderr);

    // Kill the first worker while it has a job under way (a folder with a workspace and no result).
    const running = await waitFor('a job under way on worker 1', () => jobUnderWay(dirs[0]!), { timeoutMs: 60_000, intervalMs: 10 });
    workers[0]!.child.kill('SIGKILL');
    await workers[0]!.exited;

    await waitFor('all 60 results', async () => (await queue().queue.getCompletedCount()) >= 60, { timeoutMs: 90_000, intervalMs: 100 });
    const listed = await spawnKeel(['fleet', 'results', '--redis', redis.url, '--json'], ROOT, env);
    const results = JSON.parse(listed.stdout) as Kept[];
    assert.equal(results.length, 60, 'one record per job');
    assert.deepEqual(new Set(results.map((r) => r.jobId)).size, 60);
    const byKind = (k: string) => results.filter((r) => kinds[Number(r.jobId.slice(4)) - 1] === k);
    assert.ok(
      byKind('pass').every((r) => r.result.status === 'done'),
      JSON.stringify(byKind('pass').map((r) => r.result.status)),
    );
    assert.ok(byKind('fail').every((r) => r.result.status === 'failed'));
    assert.ok(byKind('over').every((r) => r.result.status === 'over_budget'));

    // No job ran to completion twice: one result.json per job across every worker's folders.
    const finished = dirs.flatMap((d) => resultFiles(d));
    const counts = new Map<string, number>();
    for (const f of finished) counts.set(f.jobId, (counts.get(f.jobId) ?? 0) + 1);
    assert.equal(counts.size, 60);
    assert.deepEqual(
      [...counts.values()].filter((n) => n !== 1),
      [],
      'a job completed twice',
    );
    // The killed worker's job was run again elsewhere, from a fresh copy.
    const rerun = results.find((r) => r.jobId === running.jobId)!;
    assert.ok(rerun.attempt >= 2, `job ${running.jobId} was attempt ${rerun.attempt}`);
    assert.ok(!fs.existsSync(path.join(running.folder, 'result.json')), 'the killed attempt never finished');
    assert.ok(model.maxInFlight <= MODEL_LIMIT, `the stand-in saw ${model.maxInFlight} requests at once`);
    assert.ok(model.maxInFlight >= 2, 'the limit was reached, not just never approached');
  });

  it('fails a queued job that names a folder the workers do not allow, and copies nothing of it', async () => {
    const secret = scratchDir('fr-secret');
    fs.writeFileSync(path.join(secret, 'id_rsa'), 'PRIVATE');
    const added = await spawnKeel(
      ['fleet', 'add', '--redis', redis!.url, '--workspace', secret, '--id', 'outside', 'print id_rsa'],
      ROOT,
      env,
    );
    assert.equal(added.code, 0, added.stderr);
    const record = await waitFor(
      'the outside job',
      async () =>
        (await queue().queue.getJob('outside'))?.returnvalue as (Kept & { folder: string; result: { reason: string } }) | undefined,
    );
    assert.equal(record.result.status, 'failed');
    assert.match(record.result.reason, /is not under a folder this worker allows \(--allow-workspace\)/);
    assert.ok(!fs.existsSync(path.join(record.folder, 'workspace')), 'nothing was copied');
  });
});

/** A job folder of this worker with a workspace being worked on and no result yet. */
function jobUnderWay(dir: string): { jobId: string; folder: string } | undefined {
  const jobs = path.join(dir, 'jobs');
  if (!fs.existsSync(jobs)) return undefined;
  for (const jobId of fs.readdirSync(jobs)) {
    for (const attempt of fs.readdirSync(path.join(jobs, jobId))) {
      const folder = path.join(jobs, jobId, attempt);
      if (fs.existsSync(path.join(folder, 'log.jsonl')) && !fs.existsSync(path.join(folder, 'result.json'))) return { jobId, folder };
    }
  }
  return undefined;
}

function resultFiles(dir: string): { jobId: string }[] {
  const jobs = path.join(dir, 'jobs');
  if (!fs.existsSync(jobs)) return [];
  return fs.readdirSync(jobs).flatMap((jobId) =>
    fs
      .readdirSync(path.join(jobs, jobId))
      .filter((a) => fs.existsSync(path.join(jobs, jobId, a, 'result.json')))
      .map(() => ({ jobId })),
  );
}
