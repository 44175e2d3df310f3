// A fleet job's commands get what `keel run`'s get: no credential of the worker's environment but
// those the worker's owner passes with --pass-env. A job from the queue cannot ask for one. Real
// `keel fleet run` (no Redis), real bash, the model stand-in on 127.0.0.1 recording each request.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { secretCorpus } from '../../support/secret-corpus.js';
import { tinyWorkspace } from '../../support/fleet-jobs.js';

const ROOT = path.resolve(__dirname, '../../..');
const sample = (name: string) => secretCorpus().find((s) => s.name === name)!.secret;
const CREDENTIALS = { GITHUB_TOKEN: sample('GitHub classic token'), NPM_TOKEN: sample('npm token') };

describe('keel fleet: credentials in the worker’s environment', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  function printenvJob(extra: Record<string, unknown> = {}): string {
    const job = { id: 'env', workspace: tinyWorkspace(), task: 'show the env', approve: ['read', 'execute'], allowCommands: ['printenv'] };
    const file = path.join(scratchDir('fleet-cred-jobs'), 'jobs.jsonl');
    fs.writeFileSync(file, `${JSON.stringify({ ...job, ...extra })}\n`);
    return file;
  }

  async function fleetRun(jobs: string, flags: string[]) {
    const env = { ...CREDENTIALS, HARMLESS: 'visible', XDG_CONFIG_HOME: scratchDir('fleet-cred-cfg') };
    const args = ['fleet', 'run', jobs, '--base-url', server!.anthropicBaseURL, '--dir', scratchDir('fleet-cred-dir'), '--json'];
    args.push('--approve', 'read,execute', '--allow-command', 'printenv');
    return spawnKeel([...args, ...flags], ROOT, env);
  }

  it('a job’s printenv does not show them, but the one --pass-env names; stderr names the rest', async () => {
    server = await startModelServer(
      conversation([{ toolCalls: [{ name: 'run_command', input: { command: 'printenv' } }] }, { text: ['Done.'] }]),
    );
    const run = await fleetRun(printenvJob(), ['--pass-env', 'GITHUB_TOKEN']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout)[0].result.status, 'done');
    const next = JSON.stringify(server.requests[1]!.body);
    assert.match(next, /HARMLESS=visible/, 'the command ran and its output went back');
    // Passed as the worker asked: printenv printed its line, which reaches the model redacted whole.
    assert.match(next, /\\n\[redacted\]\\n/, 'passed as the worker asked');
    assert.ok(!next.includes(CREDENTIALS.GITHUB_TOKEN), 'the model never reads its value');
    assert.ok(!next.includes(CREDENTIALS.NPM_TOKEN) && !next.includes('NPM_TOKEN='), 'NPM_TOKEN reached the model');
    assert.match(run.stderr, /commands will not see NPM_TOKEN \(/);
  });

  it('a clone that fails keeps the token of its URL out of the result and the output', async () => {
    const jobs = path.join(scratchDir('fleet-cred-url'), 'jobs.jsonl');
    const url = `https://bot:${CREDENTIALS.GITHUB_TOKEN}@127.0.0.1:1/private.git`;
    fs.writeFileSync(jobs, `${JSON.stringify({ id: 'clone', repo: { url }, task: 'x' })}\n`);
    const dir = scratchDir('fleet-cred-url-dir');
    const run = await spawnKeel(['fleet', 'run', jobs, '--provider', 'scripted', '--dir', dir, '--json'], ROOT, {});
    // The job failed: the run exits 1.
    assert.equal(run.code, 1, run.stderr);
    const [record] = JSON.parse(run.stdout);
    assert.equal(record.result.status, 'failed');
    assert.match(record.result.reason, /could not be made: git clone/);
    const kept = fs.readFileSync(path.join(record.folder, 'result.json'), 'utf8');
    for (const text of [run.stdout, run.stderr, kept]) assert.ok(!text.includes(CREDENTIALS.GITHUB_TOKEN), 'the token was shown');
  });

  it('a job line that asks for a variable is refused and nothing runs', async () => {
    server = await startModelServer(conversation([{ text: ['Done.'] }]));
    const run = await fleetRun(printenvJob({ passEnv: ['NPM_TOKEN'] }), []);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /jobs\.jsonl:1: .*passEnv/);
    assert.equal(server.requests.length, 0);
  });
});
