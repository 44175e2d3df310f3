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

/**
 * `persist`: an append-only file in `dir`, so a server started again on the same port and folder
 * (a Redis outage) has the queue it had.
 */
export async function startRedis(
  options: { port?: number; dir?: string; persist?: boolean } = {},
): Promise<RedisServer & { port: number; dir: string }> {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? scratchDir('redis');
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
    options.persist ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--protected-mode',
    'yes',
  ]);
  await waitFor(`redis-server on ${port}`, () => answersPing(port), { timeoutMs: 10_000, intervalMs: 50 });
  return { url: `redis://127.0.0.1:${port}`, port, dir, stop: () => server.stop() };
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
