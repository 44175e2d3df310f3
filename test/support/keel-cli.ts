// `keel` as a user runs it, from any folder: the CLI's source through tsx (named by its file, so
// the current folder need not be the project), without npm's own settings in the environment.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { scratchDir } from './scratch.js';

const ROOT = path.resolve(__dirname, '../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;

export interface KeelRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `inherit`: descriptors of this process keel gets at the same numbers (as a shell's `exec 7<~` would pass them). */
export function spawnKeel(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  inherit: Record<number, number> = {},
): Promise<KeelRun> {
  const extra: ('ignore' | number)[] = [];
  for (const [at, fd] of Object.entries(inherit)) {
    while (extra.length < Number(at) - 3) extra.push('ignore');
    extra[Number(at) - 3] = fd;
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--import=${TSX}`, path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd,
      env: { ...withoutNpmConfig(process.env), NPM_CONFIG_USERCONFIG: emptyNpmrc(), ANTHROPIC_API_KEY: 'test-key', ...env },
      stdio: ['ignore', 'pipe', 'pipe', ...extra],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let npmrc: string | undefined;

/** An empty npm user config, for the same reason: the user's may draw warnings. */
function emptyNpmrc(): string {
  if (!npmrc) {
    npmrc = `${scratchDir('npmrc')}/npmrc`;
    fs.writeFileSync(npmrc, '');
  }
  return npmrc;
}

/**
 * The environment without npm's own settings (npm_config_* from an npm script, the user's npmrc): a warning about
 * them on stderr lands at a random place among a test runner's output, so two runs of the same
 * tests would differ.
 */
function withoutNpmConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_config_/i.test(k)));
}
