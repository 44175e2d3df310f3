// Red team, class "services that trust any caller" (issue 33), through the real `keel serve --a2a`
// and `keel fleet work` on a real redis-server: a request is data, and so is a queue message. A
// DNS-rebinding page (a foreign Host, a foreign Origin) and a caller without the token get nothing;
// one caller never sees another's tasks; a job from the queue that says "approve": "all" runs
// within its worker's flags, so its payload cannot take the worker's ~/.ssh or ~/.aws. Each
// guard's yardstick: the same request is served by a plain express server, and the payload run by
// plain bash does steal the key.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import express from 'express';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { spawnGroup, waitFor, type GroupProcess } from '../../support/processes.js';
import { requireRedis, startRedis, type RedisServer } from '../../support/redis-server.js';
import { STEAL, victimHome, yardstick } from '../../support/redteam-home.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const KEEL = ['--import=tsx', path.join(ROOT, 'src/cli/main.ts')];
const CALLER_A = 'caller-a-token-0123456789abcdef';
const CALLER_B = 'caller-b-token-0123456789abcdef';

/** A served task's model: runs the payload once if the task asks for it, then answers. */
function servedModel(req: RecordedRequest): WireTurn {
  const all = JSON.stringify(req.body?.messages ?? []);
  if (all.includes('tool_result') || !all.includes('[steal]')) return { text: ['Done.'] };
  return { toolCalls: [{ name: 'run_command', input: { command: STEAL } }] };
}

interface HttpAnswer {
  status: number;
  body: string;
}

/** A raw HTTP request to 127.0.0.1:port with exactly these headers (a browser's Host and Origin among them). */
function raw(port: number, method: string, urlPath: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: urlPath, headers: { ...(data ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const send = (text: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } },
});
const call = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 2, method, params });

describe('red team: services that trust any caller (keel serve --a2a, keel fleet work)', function () {
  this.timeout(180_000);
  let model: ModelServer;
  before(async () => {
    model = await startModelServer(conversation((req) => servedModel(req)));
  });
  after(async () => model?.close());

  describe('keel serve --a2a', () => {
    let serve: GroupProcess;
    let port: number;
    const victim = victimHome('serve');
    const host = (p = port) => ({ Host: `127.0.0.1:${p}`, 'A2A-Version': '1.0' });
    const as = (token: string) => ({ ...host(), Authorization: `Bearer ${token}` });

    before(async () => {
      const served = scratchDir('redteam-served');
      fs.writeFileSync(path.join(served, 'README.md'), '# served\n');
      const args = [...KEEL, 'serve', '--a2a', '--workspace', served, '--base-url', model.anthropicBaseURL];
      const env = { ...process.env, ...victim.env, ANTHROPIC_API_KEY: 'test-key', KEEL_A2A_TOKEN: `${CALLER_A},${CALLER_B}` };
      serve = spawnGroup(process.execPath, args, { cwd: ROOT, env });
      port = Number(
        await waitFor('the A2A URL', () => /A2A agent at http:\/\/127\.0\.0\.1:(\d+)\//.exec(serve.output())?.[1], { timeoutMs: 60_000 }),
      );
    });
    after(async () => serve?.stop());

    it('refuses a request addressed to another name (DNS rebinding), which a plain express server serves', async () => {
      const plain = express();
      plain.post('/', (_req, res) => void res.json({ ok: true }));
      const server = plain.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const plainPort = (server.address() as AddressInfo).port;
      try {
        const yard = await raw(plainPort, 'POST', '/', { Host: `attacker.example:${plainPort}` }, {});
        assert.equal(yard.status, 200, 'yardstick: a foreign Host is served by a plain server');
      } finally {
        server.close();
      }
      const before = model.requests.length;
      const r = await raw(port, 'POST', '/', { ...as(CALLER_A), Host: `attacker.example:${port}` }, send('hello'));
      assert.equal(r.status, 403, r.body);
      const card = await raw(port, 'GET', '/.well-known/agent-card.json', { Host: `attacker.example:${port}` });
      assert.equal(card.status, 403, 'not even the card');
      assert.equal(model.requests.length, before, 'no task ran');
    });

    it('refuses a request a web page of another origin sends, token or not', async () => {
      const r = await raw(port, 'POST', '/', { ...as(CALLER_A), Origin: 'http://attacker.example' }, send('hello'));
      assert.equal(r.status, 403, r.body);
      const nul = await raw(port, 'POST', '/', { ...as(CALLER_A), Origin: 'null' }, send('hello'));
      assert.equal(nul.status, 403, nul.body);
    });

    it('refuses a caller without the token (the card alone is public)', async () => {
      const before = model.requests.length;
      const r = await raw(port, 'POST', '/', host(), send('hello'));
      assert.equal(r.status, 401, r.body);
      const wrong = await raw(port, 'POST', '/', as('not-the-token-0123456789'), send('hello'));
      assert.equal(wrong.status, 401);
      assert.equal(model.requests.length, before, 'no task ran');
      const card = await raw(port, 'GET', '/.well-known/agent-card.json', host());
      assert.equal(card.status, 200);
      assert.ok(JSON.parse(card.body).securitySchemes.bearer, 'the card says how to authenticate');
    });

    it('shows a caller only its own tasks: ListTasks, GetTask and their artifacts', async () => {
      const sent = await raw(port, 'POST', '/', as(CALLER_A), send('what is this project?'));
      assert.equal(sent.status, 200, sent.body);
      const task = JSON.parse(sent.body).result?.task;
      assert.ok(task?.id, sent.body);
      const mine = JSON.parse((await raw(port, 'POST', '/', as(CALLER_A), call('ListTasks', { includeArtifacts: true }))).body);
      assert.ok(
        mine.result.tasks.some((t: { id: string }) => t.id === task.id),
        JSON.stringify(mine),
      );
      const theirs = JSON.parse((await raw(port, 'POST', '/', as(CALLER_B), call('ListTasks', { includeArtifacts: true }))).body);
      assert.deepEqual(theirs.result.tasks, [], 'another caller listed the task');
      const got = JSON.parse((await raw(port, 'POST', '/', as(CALLER_B), call('GetTask', { id: task.id }))).body);
      assert.ok(got.error && !got.result, `another caller read the task: ${JSON.stringify(got)}`);
      const cancel = JSON.parse((await raw(port, 'POST', '/', as(CALLER_B), call('CancelTask', { id: task.id }))).body);
      assert.ok(cancel.error, 'another caller cancelled the task');
    });
  });

  describe('keel fleet work', () => {
    let redis: RedisServer | undefined;
    const workers: GroupProcess[] = [];
    before(function () {
      requireRedis(this);
    });
    after(async () => {
      await Promise.all(workers.map((w) => w.stop()));
      await redis?.stop();
    });

    it('a queued job approving "all" runs within the worker’s flags: the worker’s key stays put', async () => {
      const victim = victimHome('fleet');
      assert.ok(yardstick(STEAL, victim).stole, 'yardstick: plain bash steals the key');
      redis = await startRedis();
      const source = scratchDir('redteam-fleet-src');
      fs.writeFileSync(path.join(source, 'README.md'), '# a job\n');
      const dir = scratchDir('redteam-fleet-dir');
      // The worker's owner allows test runs and printenv, and nothing more.
      const args = [...KEEL, 'fleet', 'work', '--redis', redis.url, '--base-url', model.anthropicBaseURL, '--dir', dir];
      args.push('--allow-workspace', source, '--approve', 'read,execute', '--allow-command', 'printenv');
      const worker = spawnGroup(process.execPath, args, {
        cwd: ROOT,
        env: { ...process.env, ...victim.env, ANTHROPIC_API_KEY: 'test-key' },
      });
      workers.push(worker);
      // Anyone who can reach the queue writes the job.
      const job = {
        id: 'greedy',
        workspace: source,
        task: '[steal] tidy up',
        approve: 'all',
        allowCommands: ['printenv', 'curl'],
      };
      const jobs = path.join(scratchDir('redteam-fleet-jobs'), 'jobs.jsonl');
      fs.writeFileSync(jobs, `${JSON.stringify(job)}\n`);
      const added = await spawnKeel(['fleet', 'add', jobs, '--redis', redis.url], ROOT, victim.env);
      assert.equal(added.code, 0, added.stderr);
      const results = await waitFor(
        'the job’s result',
        async () => {
          const r = await spawnKeel(['fleet', 'results', '--redis', redis!.url, '--json'], ROOT, victim.env);
          const all = JSON.parse(r.stdout || '[]') as { jobId: string; result: { status: string; refusals: { tool: string }[] } }[];
          return all.find((x) => x.jobId === 'greedy');
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      assert.ok(!fs.existsSync(victim.stolen), 'the job copied the worker’s ~/.ssh/id_rsa');
      assert.equal(results.result.status, 'refused', JSON.stringify(results.result));
      assert.equal(results.result.refusals[0]?.tool, 'run_command');
      assert.ok(!JSON.stringify(model.requests.map((r) => r.body)).includes(victim.awsSecret), 'the AWS secret reached the model');
      assert.match(
        worker.output(),
        /keel fleet: greedy runs within this worker's flags: not approve write,network; approve all; allow-command "curl"/,
      );
    });
  });
});
