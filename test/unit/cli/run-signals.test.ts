// What CI cancellation, `timeout`, Docker and Kubernetes send (SIGTERM) and a closed terminal
// (SIGHUP) stop a run as Ctrl+C does: exit 130, the result record printed, `run_cancelled` last in
// a log that stays whole — never Node's default signal death (exit 143, nothing printed).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { anthropicSse } from '../../support/anthropic-wire.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: { type: string; result?: { status: string; exitCode: number } }[];
}

/** `keel run --output jsonl` against a model that streams slowly, sent `signal` once its answer streams. */
function runAndSignal(server: ModelServer, workspace: string, log: string, signal: NodeJS.Signals): Promise<Stopped> {
  const home = path.dirname(log);
  const args = ['run', '--workspace', workspace, '--base-url', server.anthropicBaseURL, '--output', 'jsonl', '--log', log, 'slow'];
  const child = spawn(process.execPath, [`--import=${TSX}`, path.join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: workspace,
    env: { ...process.env, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache'), ANTHROPIC_API_KEY: 'k' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let sent = false;
  child.stdout.on('data', (d) => {
    out += d;
    if (!sent && out.includes('"text_delta"')) {
      sent = true;
      child.kill(signal);
    }
  });
  return new Promise((resolve) =>
    child.on('close', (code, killedBy) =>
      resolve({ code, signal: killedBy, lines: out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) }),
    ),
  );
}

describe('keel run stopped by a signal', function () {
  this.timeout(60_000);
  let server: ModelServer;

  before(async () => {
    server = await startModelServer(() => ({ type: 'stream', body: anthropicSse({ text: ['x'.repeat(200)] }), chunks: 20, pauseMs: 300 }));
  });
  after(() => server.close());

  for (const signal of ['SIGTERM', 'SIGHUP'] as const)
    it(`${signal} stops like Ctrl+C: exit 130, a result record, run_cancelled in the log`, async () => {
      const home = scratchDir(`signal-${signal}`);
      const workspace = path.join(home, 'ws');
      fs.mkdirSync(workspace);
      const log = path.join(home, 'task.jsonl');
      const stopped = await runAndSignal(server, workspace, log, signal);
      assert.equal(stopped.signal, null, 'not killed by the signal');
      assert.equal(stopped.code, 130);
      const last = stopped.lines.at(-1);
      assert.equal(last?.type, 'result');
      assert.equal(last?.result?.status, 'stopped');
      const loaded = loadLog(log);
      assert.equal(loaded.torn, undefined);
      assert.equal(loaded.events.at(-1)?.type, 'run_cancelled');
    });
});
