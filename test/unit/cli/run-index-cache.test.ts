// keel run keeps the code index under the config folder: the first run leaves a cache file (not
// in the workspace), the second run's first request carries the map at once; a run told not to
// keep one (a fleet job's throwaway copy) leaves none.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseRunArgs } from '../../../src/cli/args.js';
import { rejectAll } from '../../../src/cli/approvals.js';
import { executeTask } from '../../../src/cli/task-run.js';
import { REPO_MAP_PENDING } from '../../../src/kernel/context/context-block.js';
import type { ModelProvider } from '../../../src/kernel/index.js';
import { scratchDir } from '../../support/scratch.js';

/** One `keel run --provider scripted` on `root`; whether its first request went with the map pending. */
async function run(root: string, env: NodeJS.ProcessEnv, indexCache?: boolean): Promise<boolean> {
  const options = parseRunArgs(['run', 'fix computeTotal', '--provider', 'scripted', '--no-checkpoints', '--output', 'json'], root);
  let pending: boolean | undefined;
  const watch = (provider: ModelProvider): ModelProvider => {
    const wrapped = Object.create(provider) as ModelProvider;
    wrapped.stream = (request, signal) => {
      pending ??= JSON.stringify(request.messages).includes(REPO_MAP_PENDING);
      return provider.stream(request, signal);
    };
    return wrapped;
  };
  await executeTask(options, {
    env,
    stderr: new Writable({ write: (_c, _e, done) => done() }),
    interactive: false,
    approver: rejectAll,
    onInterrupt: () => () => {},
    memory: false,
    hooks: false,
    wrapProvider: watch,
    ...(indexCache === undefined ? {} : { indexCache }),
  });
  return pending!;
}

describe('keel run: the code index cache', function () {
  this.timeout(120_000);

  it('leaves a cache under the config folder that the next run starts from', async () => {
    const root = scratchDir('run-index-cache');
    writeFileSync(path.join(root, 'total.ts'), 'export function computeTotal(xs: number[]): number {\n  return xs.length;\n}\n');
    const env = { ...process.env, XDG_CONFIG_HOME: scratchDir('run-index-cfg') };
    await run(root, env);
    const folder = path.join(env.XDG_CONFIG_HOME, 'keel', 'code-index');
    assert.equal(readdirSync(folder).length, 1, 'one cache file');
    assert.deepEqual(readdirSync(root), ['total.ts'], 'nothing added to the workspace');
    assert.equal(await run(root, env), false, 'the second run sends the map with its first request');
  });

  it('keeps no cache when told not to', async () => {
    const root = scratchDir('run-index-nocache');
    writeFileSync(path.join(root, 'total.ts'), 'export const total = 1;\n');
    const env = { ...process.env, XDG_CONFIG_HOME: scratchDir('run-index-nocfg') };
    await run(root, env, false);
    assert.equal(existsSync(path.join(env.XDG_CONFIG_HOME, 'keel', 'code-index')), false);
  });
});
