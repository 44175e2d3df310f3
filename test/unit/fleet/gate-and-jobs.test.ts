// The fleet's pieces on their own: the model gate (in memory and in a real redis-server: the limit
// holds, a dead holder's slot comes back, a 429 pauses everyone), the fleet budget across jobs, the
// job schema against hostile lines, and a clone at a ref of a repository made here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import {
  jobFolder,
  localGate,
  parseJobLines,
  prepareWorkspace,
  redisFleetBudget,
  redisGate,
  type ModelGate,
} from '../../../src/fleet/index.js';
import { requireRedis, startRedis, type RedisServer } from '../../support/redis-server.js';
import { scratchDir } from '../../support/scratch.js';

const never = new AbortController().signal;

/** Runs `tasks` holders through the gate at once, each holding its slot `holdMs`; returns the most at once. */
async function mostAtOnce(gate: ModelGate, tasks: number, holdMs: number): Promise<number> {
  let now = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: tasks }, async () => {
      const lease = await gate.acquire(never);
      most = Math.max(most, ++now);
      await new Promise((r) => setTimeout(r, holdMs));
      now--;
      await lease.release();
    }),
  );
  return most;
}

describe('fleet: model gate, budget, jobs', function () {
  this.timeout(30_000);

  it('keeps the in-process gate to its limit and lets every request through', async () => {
    assert.equal(await mostAtOnce(localGate({ concurrency: 2, perMinute: 0 }), 8, 10), 2);
    assert.equal(await mostAtOnce(localGate({ concurrency: 0, perMinute: 0 }), 5, 10), 5, 'no limit: all at once');
  });

  it('pauses everyone after a 429 until its retry-after has passed', async () => {
    const gate = localGate({ concurrency: 0, perMinute: 0 });
    await gate.pause(150);
    const started = Date.now();
    await (await gate.acquire(never)).release();
    assert.ok(Date.now() - started >= 140, `waited ${Date.now() - started} ms`);
  });

  describe('in Redis', () => {
    let redis: RedisServer | undefined;
    let client: Redis;
    const clients: Redis[] = [];
    const another = (): Redis => {
      const c = new Redis(redis!.url);
      clients.push(c);
      return c;
    };
    before(async function () {
      requireRedis(this);
      redis = await startRedis();
      client = new Redis(redis.url);
    });
    after(async () => {
      client?.disconnect();
      for (const c of clients) c.disconnect();
      await redis?.stop();
    });

    it('holds the limit across gates sharing one key, as workers on many machines do', async () => {
      const a = redisGate(client, 'test:one', { concurrency: 3, perMinute: 0 });
      const b = redisGate(another(), 'test:one', { concurrency: 3, perMinute: 0 });
      const counts = await Promise.all([mostAtOnce(a, 6, 40), mostAtOnce(b, 6, 40)]);
      const all = await mostAtOnce(a, 1, 1);
      assert.ok(all === 1 && counts.every((c) => c <= 3), String(counts));
      const inFlight = await client.zcard('test:one:gate:leases');
      assert.equal(inFlight, 0, 'every slot was given back');
    });

    it('gives a dead holder’s slot back when its lease runs out, never before', async () => {
      // What a worker killed mid-request leaves: a lease nobody renews, expiring 400 ms from now.
      const [sec, usec] = (await client.time()) as [number | string, number | string];
      await client.zadd('test:dead:gate:leases', Number(sec) * 1000 + Math.floor(Number(usec) / 1000) + 400, 'dead-worker');
      const gate = redisGate(client, 'test:dead', { concurrency: 1, perMinute: 0 });
      const started = Date.now();
      const lease = await gate.acquire(never);
      const waited = Date.now() - started;
      await lease.release();
      assert.ok(waited >= 350 && waited < 3000, `waited ${waited} ms`);
    });

    it('without a concurrency limit holds no lease (one round trip a request) but still waits out a 429 pause', async () => {
      const gate = redisGate(client, 'test:free', { concurrency: 0, perMinute: 0 });
      const leases = await Promise.all([gate.acquire(never), gate.acquire(never), gate.acquire(never)]);
      assert.equal(await client.exists('test:free:gate:leases'), 0, 'no lease written');
      await Promise.all(leases.map((l) => l.release()));
      await gate.pause(300);
      const started = Date.now();
      await (await gate.acquire(never)).release();
      assert.ok(Date.now() - started >= 200, `waited ${Date.now() - started} ms`);
    });

    it('limits requests per minute across gates', async () => {
      const gate = redisGate(client, 'test:rpm', { concurrency: 0, perMinute: 2 });
      await (await gate.acquire(never)).release();
      await (await gate.acquire(never)).release();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      await assert.rejects(async () => (await gate.acquire(controller.signal)).release(), /Stopped while waiting/);
    });

    it('stops every job once the fleet has spent its cap', async () => {
      await client.set('test:budget:budget:cap-usd', '1');
      const one = redisFleetBudget(client, 'test:budget');
      const two = redisFleetBudget(another(), 'test:budget');
      assert.equal(await one.charge({ usd: 0.6, tokens: 10 }), undefined);
      assert.match((await two.charge({ usd: 0.5, tokens: 10 })) ?? '', /fleet's cost cap is spent: \$1\.1000 of \$1/);
      assert.ok(await one.spentOut(), 'no job starts now');
    });
  });

  it('refuses hostile job lines by line, and keeps the good ones', () => {
    const lines = [
      { workspace: '/w', task: 'ok' },
      { repo: { url: 'ext::sh -c touch% /tmp/pwned' }, task: 'x' },
      { repo: { url: '--upload-pack=touch /tmp/pwned' }, task: 'x' },
      { repo: { url: 'https://example.invalid/r.git', ref: '--orphan' }, task: 'x' },
      { repo: { url: 'https://example.invalid/r.git', ref: 'main..HEAD' }, task: 'x' },
      { workspace: '/w', task: 'x', baseUrl: 'http://attacker.invalid' },
      { workspace: '/w', task: 'x', allowCommands: ['make; curl x'] },
      { workspace: '/w', repo: { url: 'https://example.invalid/r.git' }, task: 'both' },
      { workspace: '/w', task: 'x', id: 'a:b' },
    ];
    const parsed = parseJobLines(`${lines.map((l) => JSON.stringify(l)).join('\n')}\nnot json\n`);
    assert.equal(parsed.jobs.length, 1);
    assert.deepEqual(
      parsed.problems.map((p) => p.line),
      [2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.match(parsed.problems[4]!.message, /baseUrl/, 'a job cannot redirect the worker’s key');
  });

  it('clones a repository at a branch or a tag into a fresh folder for each attempt', async () => {
    const origin = scratchDir('git-origin');
    const git = (...args: string[]) => execFileSync('git', ['-C', origin, ...args], { encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(origin, 'a.txt'), 'one\n');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', 'a.txt');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'one');
    git('tag', 'v1');
    git('checkout', '-q', '-b', 'feature');
    fs.writeFileSync(path.join(origin, 'a.txt'), 'two\n');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-am', 'two');
    git('checkout', '-q', 'main');
    const root = scratchDir('git-jobs');
    const job = (ref: string) => parseJobLines(JSON.stringify({ repo: { url: `file://${origin}`, ref }, task: 'x' })).jobs[0]!;
    const feature = jobFolder(root, 'j', 1);
    await prepareWorkspace(job('feature'), feature, [origin]);
    assert.equal(fs.readFileSync(path.join(feature.workspace, 'a.txt'), 'utf8'), 'two\n');
    const tag = jobFolder(root, 'j', 2);
    await prepareWorkspace(job('v1'), tag, [origin]);
    assert.equal(fs.readFileSync(path.join(tag.workspace, 'a.txt'), 'utf8'), 'one\n');
    assert.notEqual(feature.dir, tag.dir);
    await assert.rejects(prepareWorkspace(job('nope'), jobFolder(root, 'j', 3), [origin]), /no branch, tag or commit "nope"/);
    await assert.rejects(prepareWorkspace(job('main'), jobFolder(root, 'j', 4), [root]), /not under a folder this worker allows/);
  });
});
