// `keel fleet run JOBS.jsonl` without Redis: the same jobs and results as the workers', on this
// machine, through the real CLI and the model stand-in on 127.0.0.1.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnKeel } from '../../support/keel-cli.js';
import { fleetModel } from '../../support/fleet-model.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { jobLines, tinyWorkspace } from '../../support/fleet-jobs.js';

const ROOT = path.resolve(__dirname, '../../..');

describe('keel fleet run (no Redis)', function () {
  this.timeout(60_000);
  let server: ModelServer;
  afterEach(async () => server?.close());

  it('runs every job in its own copy and prints one result per job, same format as the workers', async () => {
    const model = fleetModel(20);
    server = await startModelServer(model.respond);
    const source = tinyWorkspace();
    const jobsFile = path.join(scratchDir('fleet-jobs'), 'jobs.jsonl');
    fs.writeFileSync(jobsFile, `${jobLines(source, ['pass', 'fail', 'over', 'pass'])}\n`);
    const dir = scratchDir('fleet-dir');
    const run = await spawnKeel(
      [
        'fleet',
        'run',
        jobsFile,
        '--concurrency',
        '2',
        '--base-url',
        server.anthropicBaseURL,
        '--dir',
        dir,
        '--json',
        '--approve',
        'read,write',
      ],
      ROOT,
      { XDG_CONFIG_HOME: scratchDir('fleet-cfg'), XDG_CACHE_HOME: scratchDir('fleet-cache') },
    );
    // A failed job (and one over budget) makes the whole run exit 1, as keel run would for it.
    assert.equal(run.code, 1, run.stderr);
    const results = JSON.parse(run.stdout) as {
      jobId: string;
      worker: string;
      result: { status: string; filesChanged: unknown[]; patch: string };
    }[];
    assert.deepEqual(
      results.map((r) => [r.jobId, r.result.status]),
      [
        ['job-1', 'done'],
        ['job-2', 'failed'],
        ['job-3', 'over_budget'],
        ['job-4', 'done'],
      ],
    );
    assert.deepEqual(results[0]!.result.filesChanged, [{ path: 'answer.txt', change: 'created', added: 1, removed: 0 }]);
    assert.match(results[0]!.result.patch, /\+job-1\n/);
    assert.ok(!fs.existsSync(path.join(source, 'answer.txt')), 'the source folder is never written');
    for (const id of ['job-1', 'job-2', 'job-3', 'job-4']) {
      const attempts = fs.readdirSync(path.join(dir, 'jobs', id));
      assert.equal(attempts.length, 1);
      const kept = path.join(dir, 'jobs', id, attempts[0]!);
      assert.ok(fs.existsSync(path.join(kept, 'result.json')) && fs.existsSync(path.join(kept, 'log.jsonl')));
      // A job's log is keel run's: its header records the job's approvals, which replay and resume decide with.
      const header = JSON.parse(fs.readFileSync(path.join(kept, 'log.jsonl'), 'utf8').split('\n')[0]!);
      assert.deepEqual(header.policy, {
        autoApprove: ['read', 'write'],
        approveUnclassified: false,
        autoApproveMemory: false,
        commandsAllow: [],
        commandsDeny: [],
        sandbox: 'unasked',
      });
      assert.ok(!fs.existsSync(path.join(kept, 'workspace')), 'the copy is removed after the job');
    }
  });

  it('runs a job in the mode it names: a plan job is offered no write and changes nothing', async () => {
    const model = fleetModel(0);
    server = await startModelServer(model.respond);
    const source = tinyWorkspace();
    const jobsFile = path.join(scratchDir('fleet-plan'), 'jobs.jsonl');
    const job = JSON.parse(jobLines(source, ['pass']));
    fs.writeFileSync(jobsFile, `${JSON.stringify({ ...job, mode: 'plan' })}\n`);
    const dir = scratchDir('fleet-plan-dir');
    const flags = ['--base-url', server.anthropicBaseURL, '--dir', dir, '--json', '--approve', 'read,write'];
    const run = await spawnKeel(['fleet', 'run', jobsFile, ...flags], ROOT, {
      XDG_CONFIG_HOME: scratchDir('fleet-cfg'),
      XDG_CACHE_HOME: scratchDir('fleet-cache'),
    });
    assert.equal(run.code, 0, run.stderr);
    const [result] = JSON.parse(run.stdout) as { result: { filesChanged: unknown[] } }[];
    assert.deepEqual(result!.result.filesChanged, [], 'the job wrote nothing although write is pre-approved');
    const offered = ((server.requests[0]!.body?.tools ?? []) as { name: string }[]).map((t) => t.name);
    assert.ok(offered.includes('read_file') && !offered.includes('write_file'), offered.join(', '));
    const kept = path.join(dir, 'jobs', 'job-1', fs.readdirSync(path.join(dir, 'jobs', 'job-1'))[0]!);
    const events = fs
      .readFileSync(path.join(kept, 'log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(events.some((e) => e.type === 'mode_set' && e.mode === 'plan'));
  });

  it('refuses a job with a mode Keel does not have (exit 2)', async () => {
    const jobsFile = path.join(scratchDir('fleet-bad-mode'), 'jobs.jsonl');
    fs.writeFileSync(jobsFile, `${JSON.stringify({ workspace: '/tmp', task: 'ok', mode: 'yolo' })}\n`);
    const run = await spawnKeel(['fleet', 'run', jobsFile], ROOT, {});
    assert.equal(run.code, 2);
    assert.match(run.stderr, /jobs\.jsonl:1: .*"agent"\|"plan"\|"ask".*mode/);
  });

  it('names a bad line of the jobs file and runs nothing (exit 2)', async () => {
    const jobsFile = path.join(scratchDir('fleet-bad'), 'jobs.jsonl');
    fs.writeFileSync(jobsFile, `${JSON.stringify({ workspace: '/tmp', task: 'ok' })}\n{"task": "no workspace"}\n`);
    const run = await spawnKeel(['fleet', 'run', jobsFile], ROOT, {});
    assert.equal(run.code, 2);
    assert.match(run.stderr, /jobs\.jsonl:2: .*exactly one of "workspace" and "repo"/);
  });
});
