// Where the code index's cache lives: under Keel's config folder, never in the workspace, one file
// per workspace keyed by its real path (a symlinked name of the same folder shares it); written
// whole and read back; a file too large to be a cache, a folder, or none at all reads as no cache.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { codeIndexCacheFile, codeIndexStore } from '../../../src/node/code-index-store.js';
import { scratchDir } from '../../support/scratch.js';

describe('the code index cache file', () => {
  it('sits under the config folder, keyed by the workspace real path, and round trips', async () => {
    const env = { XDG_CONFIG_HOME: scratchDir('index-store-cfg') };
    const root = scratchDir('index-store-ws');
    const link = path.join(scratchDir('index-store-link'), 'ws');
    symlinkSync(root, link);
    const file = codeIndexCacheFile(root, env);
    assert.ok(file.startsWith(path.join(env.XDG_CONFIG_HOME, 'keel', 'code-index') + path.sep), file);
    assert.equal(codeIndexCacheFile(link, env), file, 'the same folder by another name');
    assert.notEqual(codeIndexCacheFile(scratchDir('index-store-other'), env), file);
    const store = codeIndexStore(file);
    assert.equal(await store.load(), undefined, 'no cache yet');
    await store.save('{"a":1}');
    assert.equal(await store.load(), '{"a":1}');
    assert.deepEqual(readdirSync(root), [], 'nothing written in the workspace');
  });

  it('reads no cache from a folder or from a file too large to be one', async () => {
    const dir = scratchDir('index-store-bad');
    mkdirSync(path.join(dir, 'folder.json'));
    assert.equal(await codeIndexStore(path.join(dir, 'folder.json')).load(), undefined);
    const huge = path.join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 300 * 1024 * 1024);
    assert.equal(await codeIndexStore(huge).load(), undefined);
  });
});
