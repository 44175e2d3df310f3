// What a `keel run` leaves running: nothing. A run that ends names its background processes and
// stops them; a Keel killed with SIGKILL while its server runs and its browser loads a page
// leaves neither behind (the keepers sweep them by their marker), checked in /proc as `ps` would.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { findChromium } from '../../../src/node/browser/find-chromium.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { runScriptedTask } from '../../support/scripted-task.js';

const TSX = pathToFileURL(require.resolve('tsx')).href;
const SERVER = `
const s = require('node:http').createServer((q, r) => { if (q.url !== '/never') r.end('<title>t</title>'); });
s.listen(Number(process.env.PORT) || 0, '127.0.0.1', () => console.log('listening on :' + s.address().port));
`;

/** Pids whose environment holds `entry` (NAME=value), or whose command line holds `arg`. */
function processesWith(match: { entry?: string; arg?: string }): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const env = match.entry ? fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0') : [];
      if ((match.entry && env.includes(match.entry)) || (match.arg && cmd.includes(match.arg))) found.push({ pid: Number(pid), cmd });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

async function until<T>(probe: () => T | undefined, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('keel run and its background processes', function () {
  this.timeout(90_000);

  it('names what ran at the end of the run and stops it', async () => {
    const ws = scratchDir('keel-bg-end-');
    const tag = `keel-bg-${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(path.join(ws, 'server.js'), SERVER);
    const provider = new ScriptedProvider([
      toolTurn('start_process', { name: 'web', command: `node server.js ${tag}` }),
      textTurn('started'),
    ]);
    const { stderr } = await runScriptedTask(ws, ['--approve', 'all', 'start it'], provider);
    assert.match(stderr, /keel: background processes of this task:\n {2}web: running, port \d+ — node server\.js/);
    assert.match(stderr, /keel: stopped 1 background process\(es\) with the task/);
    await until(() => (processesWith({ arg: tag }).length === 0 ? true : undefined), 10_000, 'the server to end');
  });

  it('a replay stops what the recording started in the background', async () => {
    const ws = scratchDir('keel-bg-replay-');
    const tag = `keel-bg-${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(path.join(ws, 'server.js'), SERVER);
    const provider = new ScriptedProvider([
      toolTurn('start_process', { name: 'web', command: `node server.js ${tag}` }),
      textTurn('started'),
    ]);
    const { runtime } = await runScriptedTask(ws, ['--approve', 'all', 'start it'], provider);
    const again = scratchDir('keel-bg-replayed-');
    fs.writeFileSync(path.join(again, 'server.js'), SERVER);
    let seen = false;
    const watching = setInterval(() => {
      seen ||= processesWith({ arg: tag }).length > 0;
    }, 20);
    try {
      await replayLog(runtime.getEvents(), again);
    } finally {
      clearInterval(watching);
    }
    assert.ok(seen, 'the replay started the server again');
    assert.deepEqual(processesWith({ arg: tag }), [], 'and stopped it before it returned');
  });

  it('leaves no server and no browser behind when Keel is killed with SIGKILL', async function () {
    if (!(await findChromium())) this.skip();
    const ws = scratchDir('keel-bg-kill-');
    fs.writeFileSync(path.join(ws, 'server.js'), SERVER);
    const entry = `KEEL_BG_TEST=${randomBytes(6).toString('hex')}`;
    const port = await freePort();
    const child = spawn(process.execPath, [`--import=${TSX}`, path.join(__dirname, '../../support/background-task-child.ts'), ws], {
      env: {
        ...process.env,
        PORT: String(port),
        [entry.split('=')[0]!]: entry.split('=')[1]!,
        XDG_CONFIG_HOME: path.join(ws, '..', 'config'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await until(
        () => {
          const all = processesWith({ entry }).filter((p) => p.pid !== child.pid);
          const server = all.some((p) => p.cmd.includes('server.js'));
          const browser = all.some((p) => /chrom/i.test(p.cmd));
          return server && browser ? all : undefined;
        },
        60_000,
        'the server and the browser to run',
      );
    } catch (err) {
      child.kill('SIGKILL');
      throw new Error(`${(err as Error).message}\n${output}`);
    }
    child.kill('SIGKILL');
    await exited;
    const left = await until(() => (processesWith({ entry }).length === 0 ? [] : undefined), 15_000, 'every process to end').catch(() =>
      processesWith({ entry }),
    );
    assert.deepEqual(left, [], 'nothing Keel started outlives it');
  });
});
