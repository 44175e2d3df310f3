// Bundles the extension (CommonJS, vscode external), the CLI and the webview into dist/.
// --production minifies and drops source maps; --test-api makes `activate` return the test API
// (src/vscode/test-api.ts) that the integration tests drive. Without it the bundle holds none of
// it: KEEL_TEST_API is false, so the API's code is dead and esbuild leaves it out.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const testApi = process.argv.includes('--test-api');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  define: { KEEL_TEST_API: String(testApi) },
};

// playwright-core (browser_check's driver) reads its own package files at run time and cannot be
// bundled: it stays a dependency the CLI loads from node_modules. The VSIX ships no
// node_modules, so there browser_check says the driver is missing (nothing else changes).
const targets = [
  {
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'playwright-core'],
  },
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['playwright-core'],
  },
  // `keel --help` alone (src/cli/help.ts), which bin/keel.js asks before it loads dist/cli.js: the
  // usage text is computed here and built in, so the file loads none of the providers it names.
  {
    entryPoints: ['src/cli/help.ts'],
    outfile: 'dist/cli-help.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [usageTextPlugin()],
  },
  // The code index's parse worker, started by both bundles above (src/codeintel/parse-pool.ts looks beside them).
  { entryPoints: ['src/codeintel/parse-worker.ts'], outfile: 'dist/parse-worker.js', platform: 'node', format: 'cjs', target: 'node20' },
  { entryPoints: ['media/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
].filter((t) => existsSync(t.entryPoints[0]));

/**
 * Replaces help.ts's import of usage.ts with the text it exports, evaluated once at build time:
 * usage.ts reads the provider registry, whose module pulls in every provider SDK.
 */
function usageTextPlugin() {
  return {
    name: 'usage-text',
    setup(build) {
      build.onResolve({ filter: /\/usage\.js$/ }, (args) =>
        args.importer.endsWith(join('cli', 'help.ts')) ? { path: 'usage', namespace: 'usage-text' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'usage-text' }, async () => ({
        contents: `export const USAGE = ${JSON.stringify(await usageText())};`,
        loader: 'js',
      }));
    },
  };
}

async function usageText() {
  const out = await esbuild.build({
    entryPoints: ['src/cli/usage.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
  return module.exports.USAGE;
}

// The webview's icon font, served from dist/ because `vsce package --no-dependencies` never
// packages node_modules/.
const codicons = dirname(createRequire(import.meta.url).resolve('@vscode/codicons/dist/codicon.css'));
mkdirSync('dist/codicons', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(join(codicons, file), join('dist', 'codicons', file));

// tree-sitter's runtime and the grammars the code index reads (src/codeintel/wasm-files.json),
// beside the bundles that load them (src/codeintel/grammars.ts looks in dist/tree-sitter).
const treeSitter = dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm'));
mkdirSync('dist/tree-sitter', { recursive: true });
for (const name of JSON.parse(readFileSync('src/codeintel/wasm-files.json', 'utf8')))
  copyFileSync(join(treeSitter, name), join('dist', 'tree-sitter', name));

if (watch) {
  for (const t of targets) (await esbuild.context({ ...common, ...t })).watch();
} else {
  await Promise.all(targets.map((t) => esbuild.build({ ...common, ...t })));
}
