// `keel` as a CI step runs it, with a deadline: a command that hangs is killed and said so
// (`killed`), so a test of "exits within seconds" fails instead of waiting for mocha's timeout.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { scratchDir } from './scratch.js';

const ROOT = path.resolve(__dirname, '../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;
/** Far above "a few seconds" of Redis waiting, even on a loaded machine: a hang ends here, killed. */
const HANG_MS = 90_000;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

/** `keel ARGS`, killed (and said so) if it has not exited after HANG_MS. */
export function keel(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--import=${TSX}`, path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        XDG_CONFIG_HOME: scratchDir('ff-cfg'),
        XDG_CACHE_HOME: scratchDir('ff-cache'),
        ANTHROPIC_API_KEY: 'k',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, HANG_MS);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}
