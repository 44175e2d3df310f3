// The code index's parse pool: workers on spare cores give exactly the index one thread gives,
// and a worker that crashes, reports failures or cannot start loses no file (the main thread
// parses what it took). The map itself against the reference build, pool forced, is in
// optimized-build.test.ts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { generateRepo } from '../../../bench/codeintel/generate-repo.js';
import type { CodeIndex } from '../../../src/codeintel/code-index.js';
import { ParsePool, parseFiles, POOL_MIN_FILES, poolSize } from '../../../src/codeintel/parse-pool.js';
import { TreeSitterIntel } from '../../../src/codeintel/tree-sitter-intel.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { scratchDir } from '../../support/scratch.js';

const WORKERS = path.resolve(__dirname, '../../support/parse-workers');
const signal = new AbortController().signal;

async function indexOf(root: string, options: ConstructorParameters<typeof TreeSitterIntel>[1]): Promise<CodeIndex> {
  const intel = new TreeSitterIntel(await createNodeWorkspace(root, { rgPath: null }), options);
  await intel.index.refresh(signal);
  return intel.index;
}

describe('the code index parse pool', function () {
  this.timeout(120_000);
  let root: string;
  let paths: string[];
  let single: CodeIndex;

  before(async () => {
    root = generateRepo(scratchDir('codeintel-pool'), 1000).root;
    single = await indexOf(root, { parseWorkers: 0 });
    paths = [...single.files()].map((f) => f.path);
  });

  it('builds with workers the same index, in the same order, as one thread', async () => {
    const pooled = await indexOf(root, { parseWorkers: 2 });
    assert.ok(pooled.lastParse!.byWorkers > 0, `the workers parsed no file: ${JSON.stringify(pooled.lastParse)}`);
    assert.equal(pooled.lastParse!.recovered, 0);
    assert.deepEqual([...pooled.files()], [...single.files()]);
  });

  it('parses again on this thread the files a crashed worker took', async () => {
    // The same files many times over, so the main thread is still parsing when the worker starts.
    const many = [...paths, ...paths];
    const pool = new ParsePool(root, 1, path.join(WORKERS, 'crashing.ts'));
    const parsed = await parseFiles(root, many, { pool, signal });
    assert.equal(parsed.recovered, 5);
    assert.equal(parsed.byWorkers, 0);
    const byPath = new Map([...single.files()].map((f) => [f.path, f]));
    parsed.outcomes.forEach((o, i) => {
      assert.equal(o?.type, 'parsed');
      if (o?.type === 'parsed') assert.deepEqual(o.file.uses, byPath.get(many[i]!)!.uses);
    });
  });

  it('parses on this thread what a worker reports failed, and what no worker could start for', async () => {
    for (const script of [path.join(WORKERS, 'failing.ts'), path.join(WORKERS, 'no-such-worker.js')]) {
      const index = await indexOf(root, { parseWorkers: 1, parseWorkerScript: script });
      assert.equal(index.lastParse!.byWorkers, 0, script);
      assert.deepEqual([...index.files()], [...single.files()], script);
    }
  });

  it('starts no workers on one core or for a small repository, at most four, one core left to the main thread', () => {
    assert.equal(poolSize(5000, 1), 0);
    assert.equal(poolSize(POOL_MIN_FILES - 1, 8), 0);
    assert.equal(poolSize(POOL_MIN_FILES, 2), 1);
    assert.equal(poolSize(5000, 4), 3);
    assert.equal(poolSize(5000, 64), 4);
  });

  it('stops the workers and stores nothing past the point an aborted build reached', async () => {
    const stop = new AbortController();
    stop.abort();
    const pool = new ParsePool(root, 1);
    const parsed = await parseFiles(root, paths, { pool, signal: stop.signal });
    assert.ok(parsed.outcomes.every((o) => o === undefined));
  });
});
