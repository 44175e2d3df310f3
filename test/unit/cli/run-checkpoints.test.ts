// `keel run` records checkpoints: a headless run that edits files logs checkpoint_recorded
// events, keeps the prior bytes in the user's cache folder, and leaves nothing of its own in the
// workspace or its .git (a real git repository, hashed file by file before and after).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { fixerModel } from '../../e2e/lib/fixer-model.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');

function keel(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ANTHROPIC_API_KEY: 'test-key', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Path → sha-256 of every file under dir. */
function hashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

describe('keel run records checkpoints', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  it('logs each step that changed files, keeps the bytes in the cache, and leaves the workspace and .git alone', async () => {
    const dir = scratchDir('cli-checkpoints');
    const work = path.join(dir, 'ws');
    fs.cpSync(EXAMPLE, work, { recursive: true });
    fs.writeFileSync(path.join(work, '.gitignore'), 'build/\n');
    fs.mkdirSync(path.join(work, 'build'));
    fs.writeFileSync(path.join(work, 'build', 'out.txt'), 'ignored\n');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=A', '-c', 'user.email=a@example.invalid', ...args], { cwd: work, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'first');
    const before = hashes(work);
    const cache = path.join(dir, 'cache');
    const log = path.join(dir, 'run.jsonl');
    server = await startModelServer(fixerModel());

    const run = await keel(
      ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--log', log, 'fix the failing tests'],
      { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: cache },
    );
    assert.equal(run.code, 0, run.out);

    const checkpoints = loadLog(log).events.filter((e) => e.type === 'checkpoint_recorded');
    const changed = checkpoints.flatMap((e) => e.files);
    assert.ok(
      changed.some((f) => f.path === 'src/price.js' && f.before !== null && f.after !== f.before),
      JSON.stringify(changed),
    );
    assert.ok(!changed.some((f) => f.path.startsWith('build/') || f.path.startsWith('.git/')), 'ignored files and .git are not scanned');
    const priceBefore = changed.find((f) => f.path === 'src/price.js')!.before!;
    const blob = path.join(cache, 'keel', 'checkpoints');
    const stored = fs.readdirSync(blob).map((ws) => path.join(blob, ws, 'blobs', priceBefore.slice(0, 2), priceBefore));
    assert.ok(
      stored.some((p) => fs.existsSync(p)),
      'the prior bytes are kept in the cache folder',
    );

    const after = hashes(work);
    const differing = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
    assert.deepEqual(differing, ['src/price.js'], 'only the edited file changed: nothing of the checkpoints in the workspace or .git');
  });
});
