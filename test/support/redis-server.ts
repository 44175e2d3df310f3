// A real redis-server (Debian's, installed by scripts/setup-e2e.sh) for one test file: on
// 127.0.0.1, a free port, a throwaway folder, nothing saved to disk; stopped by the test. Without
// the binary the tests skip — except under CI, where a missing redis-server is a failure.
import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort, spawnGroup, waitFor, type GroupProcess } from './processes.js';
import { scratchDir } from './scratch.js';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Skips the suite when redis-server is missing, unless CI=true (then it fails). */
export function requireRedis(suite: Mocha.Context): void {
  if (hasRedisServer()) return;
  if (process.env.CI === 'true') throw new Error('redis-server is missing: scripts/setup-e2e.sh installs it.');
  suite.skip();
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = scratchDir('redis');
  const server: GroupProcess = spawnGroup('redis-server', [
    '--bind',
    '127.0.0.1',
    '--port',
    String(port),
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'yes',
  ]);
  await waitFor(`redis-server on ${port}`, () => answersPing(port), { timeoutMs: 10_000, intervalMs: 50 });
  return { url: `redis://127.0.0.1:${port}`, stop: () => server.stop() };
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('error', () => resolve(false));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}
