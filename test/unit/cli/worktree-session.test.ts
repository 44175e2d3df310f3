// The headless worktree session end to end, through the real CLI and a model on 127.0.0.1 that
// fixes a failing test: `keel run --worktree` edits only the worktree (the main folder is byte for
// byte the same before apply), `keel worktree list` shows the session done with its file and cap
// and agrees with `git worktree list`, apply lands the fix, discard needs --yes without a terminal
// and then removes worktree and branch. Outside a git repository the task runs in the folder.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixerModel } from '../../e2e/lib/fixer-model.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');

/** The CLI on `--workspace work` (it starts in the repository's root, where tsx resolves). */
function keel(args: string[], env: Record<string, string>, work: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), ...args, '--workspace', work], {
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

function gitRepo(dir: string): { work: string; git: (...args: string[]) => string } {
  const work = path.join(dir, 'main');
  fs.cpSync(EXAMPLE, work, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=A', '-c', 'user.email=a@example.invalid', ...args], { cwd: work, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  return { work, git };
}

describe('keel run --worktree and keel worktree', function () {
  this.timeout(120_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  it('runs the task in its own worktree, lists it, applies it, and discards it', async () => {
    const dir = fs.realpathSync(scratchDir('cli-worktree'));
    const { work, git } = gitRepo(dir);
    const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    const price = fs.readFileSync(path.join(work, 'src/price.js'), 'utf8');
    server = await startModelServer(fixerModel());

    const run = await keel(
      [
        'run',
        '--worktree',
        'fix',
        '--base-url',
        server.anthropicBaseURL,
        '--approve',
        'all',
        '--max-tokens',
        '900000',
        'fix the failing tests',
      ],
      env,
      work,
    );
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /session fix runs on keel\/fix in /);
    assert.equal(fs.readFileSync(path.join(work, 'src/price.js'), 'utf8'), price, 'the main folder is untouched before apply');
    assert.equal(git('status', '--porcelain'), '');

    const list = await keel(['worktree', 'list'], env, work);
    assert.equal(list.code, 0, list.out);
    assert.match(list.out, /^fix {2}keel\/fix {2}done {2}1 file changed {2}[\d,]+ tokens of 900,000 cap$/m);
    const ours = git('worktree', 'list', '--porcelain')
      .split('\n')
      .filter((l) => l.startsWith('worktree ') && !l.endsWith(work));
    const json = JSON.parse((await keel(['worktree', 'list', '--json'], env, work)).out);
    assert.deepEqual(
      json.sessions.map((s: { record: { path: string } }) => `worktree ${s.record.path}`),
      ours,
    );

    const diff = await keel(['worktree', 'diff', 'fix'], env, work);
    assert.match(diff.out, /^diff --git a\/src\/price.js b\/src\/price.js$/m);

    const apply = await keel(['worktree', 'apply', 'fix'], env, work);
    assert.equal(apply.code, 0, apply.out);
    assert.notEqual(fs.readFileSync(path.join(work, 'src/price.js'), 'utf8'), price);

    const refused = await keel(['worktree', 'discard', 'fix'], env, work);
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /nobody can be asked here; add --yes/);
    const discard = await keel(['worktree', 'discard', 'fix', '--yes'], env, work);
    assert.equal(discard.code, 0, discard.out);
    assert.equal(git('branch', '--list', 'keel/*'), '');
    assert.match((await keel(['worktree', 'list'], env, work)).out, /^No worktree sessions\.$/m);
  });

  it('outside a git repository says so and runs the task in the folder', async () => {
    const dir = fs.realpathSync(scratchDir('cli-worktree-nogit'));
    const work = path.join(dir, 'ws');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, 'a.txt'), 'a\n');
    const run = await keel(
      ['run', '--worktree', '--provider', 'scripted', 'list the files'],
      { XDG_CONFIG_HOME: path.join(dir, 'c') },
      work,
    );
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /--worktree: .* is not in a git repository .*; the task runs in the folder itself/);
  });
});
