// The parse worker as it ships: bench:codeintel's cold builds run the bundled worker (what the
// extension and the `keel` CLI start, dist/parse-worker.js) rather than its TypeScript source,
// whose start under tsx includes compiling the sources, a cost no user pays.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { scratchDir } from '../../test/support/scratch.js';

const repo = path.resolve(__dirname, '../..');

/** Bundles src/codeintel/parse-worker.ts into a scratch folder, with tree-sitter's .wasm files beside it as esbuild.mjs does. */
export async function bundledParseWorker(): Promise<string> {
  const dir = scratchDir('bench-parse-worker');
  const outfile = path.join(dir, 'parse-worker.js');
  await build({
    entryPoints: [path.join(repo, 'src/codeintel/parse-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  const wasm = path.dirname(createRequire(path.join(repo, 'package.json')).resolve('@vscode/tree-sitter-wasm'));
  mkdirSync(path.join(dir, 'tree-sitter'));
  const names = JSON.parse(readFileSync(path.join(repo, 'src/codeintel/wasm-files.json'), 'utf8')) as string[];
  for (const name of names) copyFileSync(path.join(wasm, name), path.join(dir, 'tree-sitter', name));
  return outfile;
}
