// Red team, class "the key in Keel's own process" (issue 33), through the real `keel run` and
// `keel fleet run`: a command Keel runs — approved, with --sandbox off — reads Keel's environment
// block (/proc/$PPID/environ) and every environment block on the machine (/proc/*/environ), and
// writes what it found into the workspace. Neither the provider key nor a credential Keel withholds
// from commands is there. The yardstick: the same probe run by a plain node process holding the same
// environment finds both.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { scratchDir } from '../../support/scratch.js';
import { secretCorpus } from '../../support/secret-corpus.js';

const ROOT = path.resolve(__dirname, '../../..');
/** Keel's own environment block, then every block this user may read. */
const PROBE = [
  "tr '\\0' '\\n' < /proc/$PPID/environ > leak.txt",
  "for f in /proc/[0-9]*/environ; do echo \"== $f $(tr '\\0' ' ' < ${f%environ}cmdline)\"; tr '\\0' '\\n' < $f; done >> leak.txt 2>/dev/null",
  'true',
].join('; ');
const KEY = `sk-ant-api03-${'k'.repeat(20)}${process.pid}KEY`;
const GITHUB_TOKEN = secretCorpus().find((s) => s.name === 'GitHub classic token')!.secret;

function probingModel(req: RecordedRequest): WireTurn {
  const answered = JSON.stringify(req.body?.messages ?? []).includes('tool_result');
  return answered ? { text: ['Done.'] } : { toolCalls: [{ name: 'run_command', input: { command: PROBE } }] };
}

/**
 * What the probe found that carries `secret`: Keel's own block (first), then each process's,
 * named by its command line. tsx's esbuild service is left out: this test runs Keel's source
 * through tsx, which starts it before Keel's first line; the shipped CLI is one bundle and starts
 * none.
 */
function holders(leak: string, secret: string): string[] {
  const [own, ...blocks] = leak.split('\n== ');
  const others = blocks.filter((b) => !/^\S+ \S*esbuild\b/.test(b));
  return [own!, ...others].filter((b) => b.includes(secret)).map((b) => b.split('\n', 1)[0]!.slice(0, 200));
}

const ownBlock = (leak: string) => leak.split('\n== ')[0]!;

function workspace(): string {
  const ws = scratchDir('redteam-key-ws');
  fs.writeFileSync(path.join(ws, 'README.md'), '# a project\n');
  return ws;
}

const env = () => ({
  ANTHROPIC_API_KEY: KEY,
  GITHUB_TOKEN,
  XDG_CONFIG_HOME: scratchDir('redteam-key-cfg'),
  XDG_STATE_HOME: scratchDir('redteam-key-state'),
});

describe('red team: the key in Keel’s own process (/proc/PID/environ)', function () {
  this.timeout(120_000);
  let server: ModelServer;
  beforeEach(async () => {
    server = await startModelServer(conversation((req) => probingModel(req)));
  });
  afterEach(async () => server?.close());

  it('yardstick: the probe run by a plain node process holding the key finds it', () => {
    const ws = workspace();
    const plain = `require('child_process').execSync(${JSON.stringify(PROBE)}, { cwd: ${JSON.stringify(ws)}, shell: 'bash' })`;
    const r = spawnSync(process.execPath, ['-e', plain], { env: { ...process.env, ...env() }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const leak = fs.readFileSync(path.join(ws, 'leak.txt'), 'utf8');
    assert.ok(ownBlock(leak).includes(KEY) && ownBlock(leak).includes(GITHUB_TOKEN), 'the probe reads its parent’s environment block');
  });

  it('keel run --approve all --sandbox off: an approved command finds neither the key nor a withheld token', async () => {
    const ws = workspace();
    const run = await spawnKeel(
      ['run', '--workspace', ws, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--sandbox', 'off', 'look'],
      ws,
      env(),
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const leak = fs.readFileSync(path.join(ws, 'leak.txt'), 'utf8');
    assert.match(ownBlock(leak), /^PATH=/m, 'the probe read Keel’s environment block');
    assert.deepEqual(holders(leak, KEY), [], 'the provider key is in these environment blocks');
    assert.deepEqual(holders(leak, GITHUB_TOKEN), [], 'a withheld token is in these environment blocks');
  });

  it('keel fleet run (a worker): a job approving all, worker --approve all --sandbox off, finds neither', async () => {
    const source = workspace();
    const jobs = path.join(scratchDir('redteam-key-jobs'), 'jobs.jsonl');
    fs.writeFileSync(jobs, `${JSON.stringify({ id: 'probe', workspace: source, task: 'look', approve: 'all' })}\n`);
    const dir = scratchDir('redteam-key-dir');
    const args = ['fleet', 'run', jobs, '--base-url', server.anthropicBaseURL, '--dir', dir, '--keep-workspaces', '--json'];
    const run = await spawnKeel([...args, '--approve', 'all', '--sandbox', 'off'], ROOT, env());
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const attempt = path.join(dir, 'jobs', 'probe', fs.readdirSync(path.join(dir, 'jobs', 'probe'))[0]!);
    const leak = fs.readFileSync(path.join(attempt, 'workspace', 'leak.txt'), 'utf8');
    assert.match(ownBlock(leak), /^PATH=/m);
    assert.deepEqual([...holders(leak, KEY), ...holders(leak, GITHUB_TOKEN)], [], 'a worker’s environment block holds the key');
  });
});
