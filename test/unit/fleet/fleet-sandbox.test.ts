// A fleet job's commands run the way `keel run`'s do under the worker's --sandbox (default
// unasked): what runs unasked (here: the job's allowCommands) in the OS sandbox on the job's copy,
// what the job approves with "all" as approved (unsandboxed, under the keeper) unless the worker
// sandboxes everything. printenv's TMPDIR shows which way a command ran (support/sandbox.ts). A job line can ask for more sandbox, never less. Without bubblewrap the worker says so
// once and only "all" jobs run commands. Real `keel fleet run` (with and without a real
// redis-server), real bwrap, real bash, the model stand-in on 127.0.0.1.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnKeel, type KeelRun } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { requireRedis, startRedis } from '../../support/redis-server.js';
import { outsideTmp, ranHow, sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';
import { tinyWorkspace } from '../../support/fleet-jobs.js';

const ROOT = path.resolve(__dirname, '../../..');
const KEEL = [`--import=${pathToFileURL(require.resolve('tsx')).href}`, path.join(ROOT, 'src/cli/main.ts')];

/** Runs a program to its end without blocking this process (the model stand-in answers from it). */
function run(file: string, args: readonly string[], env: Record<string, string>): Promise<KeelRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: ROOT, env: { ...process.env, ANTHROPIC_API_KEY: 'test-key', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Each job's model calls printenv once, then ends. */
function printenvOnce(req: RecordedRequest): WireTurn {
  if (!JSON.stringify(req.body?.messages ?? []).includes('tool_result'))
    return { toolCalls: [{ name: 'run_command', input: { command: 'printenv' } }] };
  return { text: ['Done.'] };
}

/** The worker's ceiling: the jobs below may approve all, and allow printenv. */
const CEILING = ['--approve', 'all', '--allow-command', 'printenv'];

/** A job run unasked by its allow rule, and one that approves every kind of call. */
function jobsFile(workspace: string, extra: Record<string, unknown> = {}): string {
  const ruled = { id: 'ruled', workspace, task: '[ruled] show the env', approve: ['read'], allowCommands: ['printenv'], ...extra };
  const all = { id: 'all', workspace, task: '[all] show the env', approve: 'all' };
  const file = path.join(scratchDir('fleet-sbx-jobs'), 'jobs.jsonl');
  fs.writeFileSync(file, `${JSON.stringify(ruled)}\n${JSON.stringify(all)}\n`);
  return file;
}

describe('keel fleet: the OS sandbox for jobs’ commands', function () {
  this.timeout(120_000);
  let server: ModelServer;
  const outside = outsideTmp(scratchDir('fleet-sbx-tmp'));
  beforeEach(async () => {
    server = await startModelServer(conversation((req) => printenvOnce(req)));
  });
  afterEach(async () => server?.close());

  const fleetRun = (jobs: string, flags: string[]): Promise<KeelRun> =>
    spawnKeel(
      ['fleet', 'run', jobs, '--base-url', server.anthropicBaseURL, '--dir', scratchDir('fleet-sbx-dir'), '--json', ...CEILING, ...flags],
      ROOT,
      {
        XDG_CONFIG_HOME: scratchDir('fleet-sbx-cfg'),
        ...outside,
      },
    );

  /** How each job's printenv ran (or that it did not), read from the result its model got back. */
  function howTheyRan(): Record<string, 'sandbox' | 'keeper' | 'not run'> {
    const how: Record<string, 'sandbox' | 'keeper' | 'not run'> = {};
    for (const req of server.requests) {
      const text = JSON.stringify(req.body?.messages ?? []);
      if (!text.includes('tool_result')) continue;
      const job = /\[(ruled|all)\]/.exec(text)![1]!;
      const ran = ranHow(text, outside);
      how[job] = ran === 'unsandboxed' ? 'keeper' : ran;
    }
    return how;
  }

  const modes = [
    { flags: [], expect: { ruled: 'sandbox', all: 'keeper' }, name: 'by default (unasked)' },
    { flags: ['--sandbox', 'everything'], expect: { ruled: 'sandbox', all: 'sandbox' }, name: 'with --sandbox everything' },
    { flags: ['--sandbox', 'off'], expect: { ruled: 'keeper', all: 'keeper' }, name: 'with --sandbox off' },
  ];
  for (const { flags, expect, name } of modes)
    it(`${name}: ${expect.ruled === 'sandbox' ? 'an allowed command in the sandbox' : 'nothing in the sandbox'}, an "all" job's in the ${expect.all}`, async function () {
      const source = tinyWorkspace();
      await sandboxOrSkip(this, source);
      const run = await fleetRun(jobsFile(source), flags);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(
        (JSON.parse(run.stdout) as { jobId: string; result: { status: string } }[]).map((r) => [r.jobId, r.result.status]),
        [
          ['ruled', 'done'],
          ['all', 'done'],
        ],
      );
      assert.deepEqual(howTheyRan(), expect);
      assert.doesNotMatch(run.stderr, /no sandbox/);
    });

  it('on Redis (keel fleet run --redis: queued, then worked on here), the same', async function () {
    requireRedis(this);
    const source = tinyWorkspace();
    await sandboxOrSkip(this, source);
    const redis = await startRedis();
    try {
      const run = await fleetRun(jobsFile(source), ['--redis', redis.url, '--queue', 'sbx']);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(howTheyRan(), { ruled: 'sandbox', all: 'keeper' });
    } finally {
      await redis.stop();
    }
  });

  it('a job line asking for less sandbox runs under the worker’s mode; one asking for more gets it', async function () {
    const source = tinyWorkspace();
    await sandboxOrSkip(this, source);
    const off = await fleetRun(jobsFile(source, { sandbox: 'off' }), []);
    assert.equal(off.code, 0, off.stderr);
    assert.match(off.stderr, /keel fleet: ruled runs within this worker's flags: not sandbox off \(now unasked\)/);
    assert.deepEqual(howTheyRan(), { ruled: 'sandbox', all: 'keeper' });
    server.requests.length = 0;
    const more = path.join(scratchDir('fleet-sbx-more'), 'jobs.jsonl');
    fs.writeFileSync(
      more,
      `${JSON.stringify({ id: 'all', workspace: source, task: '[all] show the env', approve: 'all', sandbox: 'everything' })}\n`,
    );
    const strict = await fleetRun(more, []);
    assert.equal(strict.code, 0, strict.stderr);
    assert.deepEqual(howTheyRan(), { all: 'sandbox' });
  });

  it('--sandbox takes unasked, everything or off (exit 2 otherwise)', async () => {
    const run = await fleetRun(jobsFile(tinyWorkspace()), ['--sandbox', 'none']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--sandbox must be one of unasked, everything, off/);
  });

  it('without bubblewrap: said once for the worker; the allowed command is refused, the "all" job runs it', async function () {
    // A mount namespace of its own where /usr/bin/bwrap is an empty, non-executable file.
    const hide = `mount --bind /dev/null /usr/bin/bwrap && exec "$@"`;
    const probe = spawnSync('unshare', ['-m', 'sh', '-c', hide, 'sh', 'true']);
    if (probe.status !== 0) {
      if (process.env.CI) throw new Error(`cannot hide bwrap here: ${probe.stderr}`);
      return this.skip();
    }
    const jobs = jobsFile(tinyWorkspace());
    const args = [
      'fleet',
      'run',
      jobs,
      '--base-url',
      server.anthropicBaseURL,
      '--dir',
      scratchDir('fleet-sbx-nobwrap'),
      '--json',
      ...CEILING,
    ];
    const r = await run('unshare', ['-m', 'sh', '-c', hide, 'sh', process.execPath, ...KEEL, ...args], {
      XDG_CONFIG_HOME: scratchDir('fleet-sbx-cfg2'),
      ...outside,
    });
    // The allowed command's job is refused: the run exits 3, as keel run would for it.
    assert.equal(r.code, 3, r.stdout + r.stderr);
    const said = r.stderr.split('\n').filter((l) => l.startsWith('keel: no sandbox for commands'));
    assert.equal(said.length, 1, r.stderr);
    assert.match(said[0]!, /bubblewrap \(bwrap\) is not installed.*only a job approving "all" runs commands/);
    const results = JSON.parse(r.stdout) as { jobId: string; result: { status: string; exitCode: number } }[];
    assert.deepEqual(
      results.map((x) => [x.jobId, x.result.status, x.result.exitCode]),
      [
        ['ruled', 'refused', 3],
        ['all', 'done', 0],
      ],
    );
    assert.deepEqual(howTheyRan(), { ruled: 'not run', all: 'keeper' });
  });
});
