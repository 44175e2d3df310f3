// Builds the test runner (mocha + every test/integration/**/*.test.ts, bundled, see
// runner-extension/extension.ts) into a temp folder: as a VSIX for code-server, or as the bare
// bundle that @vscode/test-electron loads as the extension tests module.
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { makeTempDir, repoRoot, vscePackage } from '../support/code-server.js';

const here = join(repoRoot, 'test', 'integration');

function findTestFiles(dir = here): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (name === 'runner-extension' || name === 'node_modules') continue;
    if (statSync(path).isDirectory()) found.push(...findTestFiles(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/** Bundles the runner into `<out>/dist/extension.js` and returns that path. */
export async function bundleRunner(out: string): Promise<string> {
  const files = findTestFiles();
  if (files.length === 0) throw new Error(`no *.test.ts under ${here}`);
  const loaders = files
    .map((f) => `{ name: ${JSON.stringify(relative(repoRoot, f))}, load: () => require(${JSON.stringify(f)}) }`)
    .join(',\n  ');
  const virtualFiles: esbuild.Plugin = {
    name: 'keel-integration-test-files',
    setup(build) {
      build.onResolve({ filter: /^keel-integration-test-files$/ }, () => ({ path: 'test-files', namespace: 'keel-tests' }));
      build.onLoad({ filter: /.*/, namespace: 'keel-tests' }, () => ({
        contents: `export const testFiles = [\n  ${loaders}\n];\n`,
        loader: 'js',
        resolveDir: here,
      }));
    },
  };
  const outfile = join(out, 'dist', 'extension.js');
  await esbuild.build({
    entryPoints: [join(here, 'runner-extension', 'extension.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'error',
    plugins: [virtualFiles],
  });
  return outfile;
}

export async function buildRunnerVsix(): Promise<string> {
  const out = makeTempDir('integration-ext');
  await bundleRunner(out);
  copyFileSync(join(here, 'runner-extension', 'package.json'), join(out, 'package.json'));
  copyFileSync(join(repoRoot, 'LICENSE'), join(out, 'LICENSE'));
  writeFileSync(join(out, 'README.md'), '# Keel integration tests\n\nTest-only extension.\n');
  writeFileSync(join(out, '.vscodeignore'), '**\n!dist/**\n!package.json\n!README.md\n!LICENSE\n');
  mkdirSync(join(out, 'pkg'), { recursive: true });
  const vsix = join(out, 'pkg', 'keel-integration-tests.vsix');
  await vscePackage(out, vsix);
  return vsix;
}
