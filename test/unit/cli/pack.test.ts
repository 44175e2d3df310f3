// The `keel` command as someone outside a clone gets it: `npm pack` (whose prepack builds the
// bundle) in a staging folder, the tarball installed into an empty folder and globally under a
// prefix of its own, and `keel run --provider scripted` run from there with no repository around.
// Slow (a production build and two installs), so it runs once for the whole file.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');

/** npm without the settings of whatever runs the tests (an npm script's npm_config_*, the user's npmrc). */
function npmEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  const npmrc = path.join(home, 'npmrc');
  fs.writeFileSync(npmrc, '');
  return { ...env, NPM_CONFIG_USERCONFIG: npmrc, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache') };
}

/**
 * The repository's package as `npm pack` sees it, in a folder of its own so the production build
 * never replaces the worktree's dist/: the files copied, the sources and node_modules linked.
 */
function stagePackage(): string {
  const stage = scratchDir('pack-stage');
  for (const file of ['package.json', 'README.md', 'LICENSE', 'esbuild.mjs'])
    fs.copyFileSync(path.join(ROOT, file), path.join(stage, file));
  // npm pack does not follow a linked folder: what ships is copied.
  for (const dir of ['bin', 'schemas']) fs.cpSync(path.join(ROOT, dir), path.join(stage, dir), { recursive: true });
  for (const dir of ['src', 'media', 'node_modules']) fs.symlinkSync(path.join(ROOT, dir), path.join(stage, dir));
  return stage;
}

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('the packed keel', function () {
  this.timeout(180_000);
  let home: string;
  let env: NodeJS.ProcessEnv;
  let tarball: string;
  let workspace: string;

  before(() => {
    home = scratchDir('pack-home');
    env = npmEnv(home);
    const stage = stagePackage();
    const name = npm(['pack', '--silent', '--pack-destination', home], stage, env).trim().split('\n').at(-1)!;
    tarball = path.join(home, name);
    workspace = scratchDir('pack-ws');
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'one\n');
  });

  it('holds the bundle the keel command loads, and no sources', () => {
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    const shipped = ['bin/keel.js', 'dist/cli.js', 'dist/cli-help.js', 'dist/parse-worker.js', 'schemas/run-result.schema.json'];
    for (const file of shipped) assert.ok(listing.includes(`package/${file}`), `${file} is in the tarball`);
    // keel --help loads this file alone: a few kilobytes, no provider SDK in it.
    const help = execFileSync('tar', ['xzOf', tarball, 'package/dist/cli-help.js'], { encoding: 'utf8' });
    assert.ok(help.length < 100_000, `dist/cli-help.js is ${help.length} bytes`);
    assert.doesNotMatch(help, /require\("(?!node:)[^"]+"\)/, 'it requires nothing but Node built-ins');
    assert.deepEqual(
      listing.filter((f) => /^package\/(src|test|node_modules)\//.test(f) || f.endsWith('.map')),
      [],
      'sources, tests and source maps stay out',
    );
  });

  it('installs into an empty folder and runs a task there (npx keel)', () => {
    const project = scratchDir('pack-install');
    fs.writeFileSync(path.join(project, 'package.json'), '{"private":true}\n');
    npm(['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], project, env);
    const run = spawnSync(
      'npx',
      ['--no-install', 'keel', 'run', '--provider', 'scripted', '--workspace', workspace, '--output', 'json', 'list the files'],
      {
        cwd: project,
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { status: string; exitCode: number };
    assert.equal(result.status, 'done');
    assert.doesNotMatch(run.stderr, /not built yet/);
  });

  it('installs globally (npm install -g) and answers --help', () => {
    const prefix = scratchDir('pack-global');
    npm(['install', '-g', '--prefix', prefix, tarball, '--no-audit', '--no-fund', '--prefer-offline'], home, env);
    const help = spawnSync(path.join(prefix, 'bin', 'keel'), ['--help'], { cwd: workspace, env, encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage:\n {2}keel run/);
  });
});
