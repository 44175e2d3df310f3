// The VSIX ships only what runs. `vsce ls` is asked what it would package from a copy of the
// repository's tracked files plus every file the build writes to dist/ (empty stand-ins: the
// listing depends on names only), and must name exactly SHIPPED_FILES. The real package is
// checked the same way after every `scripts/package-vsix.ts` (see checkEntries).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkEntries, makeTempDir, repoRoot, SHIPPED_FILES, VSIX_ENTRIES, vsceList, zipEntries } from '../../../scripts/vsix.js';
import wasmFiles from '../../../src/codeintel/wasm-files.json' with { type: 'json' };

/** Everything esbuild.mjs writes, development build (source maps) included. */
const BUILD_OUTPUTS = ['extension', 'cli', 'webview', 'parse-worker']
  .flatMap((name) => [`dist/${name}.js`, `dist/${name}.js.map`])
  .concat(['dist/webview.css', 'dist/webview.css.map', 'dist/codicons/codicon.css', 'dist/codicons/codicon.ttf'])
  .concat(wasmFiles.map((name) => `dist/tree-sitter/${name}`));

const REAL = ['package.json', '.vscodeignore', 'README.md', 'CHANGELOG.md', 'LICENSE']; // read by vsce itself

describe('VSIX contents', function () {
  this.timeout(30_000);

  it('packages exactly the files that run: not the CLI, source maps, sources or the dev harness', async () => {
    const stage = makeTempDir('vsix-ls');
    const tracked = execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
    for (const file of [...tracked, ...BUILD_OUTPUTS]) {
      mkdirSync(dirname(join(stage, file)), { recursive: true });
      if (REAL.includes(file)) copyFileSync(join(repoRoot, file), join(stage, file));
      else writeFileSync(join(stage, file), '');
    }
    const listed = await vsceList(stage);
    assert.deepEqual([...listed].sort(), [...SHIPPED_FILES].sort());
  });

  it('reads a zip’s entries and names what is extra or missing', () => {
    // A zip with one stored file "a.txt" ("x") and its central directory.
    const name = Buffer.from('a.txt');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(name.length, 28);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(local.length + name.length + 1, 16);
    const zip = Buffer.concat([local, name, Buffer.from('x'), central, name, end]);
    assert.deepEqual(zipEntries(zip), ['a.txt']);
    assert.throws(() => zipEntries(Buffer.from('not a zip')), /not a zip/);
    assert.doesNotThrow(() => checkEntries([...VSIX_ENTRIES], VSIX_ENTRIES));
    assert.throws(() => checkEntries([...VSIX_ENTRIES, 'extension/dist/cli.js'], VSIX_ENTRIES), /not expected: extension\/dist\/cli\.js/);
    assert.throws(() => checkEntries(VSIX_ENTRIES.slice(1), VSIX_ENTRIES), /missing: extension\.vsixmanifest/);
  });
});
