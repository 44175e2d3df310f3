// Starting a worktree session with real git: a branch keel/<name> checked out outside the main
// folder, from HEAD or a ref, the main folder untouched, dependencies linked, and every bad input
// said — a detached HEAD, uncommitted changes, a taken name, a bad name or ref, a failure midway
// (a full disk) that leaves nothing behind.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSession, findRepo, type GitRunner, runGit, WorktreeError } from '../../../../src/node/worktrees/index.js';
import { scratchDir } from '../../../support/scratch.js';
import { gitFixture, gitWorktreePaths } from './git-fixture.js';

const request = { task: 'fix the tests', caps: {} };

describe('worktree sessions: creating one', function () {
  this.timeout(30_000);

  it('checks out keel/<name> from HEAD in Keel’s folder, outside the main folder, and leaves the main folder alone', async () => {
    const f = await gitFixture();
    const { record, notices } = await createSession(f.repo, f.layout, { ...request, name: 'one' });
    assert.equal(record.branch, 'keel/one');
    assert.ok(!record.path.startsWith(f.top + path.sep) && record.path.startsWith(f.layout.trees));
    assert.equal(fs.readFileSync(path.join(record.path, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(record.base, f.git('rev-parse', 'HEAD').trim());
    assert.deepEqual(gitWorktreePaths(f), [record.path]);
    assert.equal(f.git('status', '--porcelain'), '', 'the main folder has no new file');
    assert.deepEqual(notices, []);
    assert.ok(fs.existsSync(path.join(f.layout.sessions, 'one.json')), 'the record is kept in Keel’s folder');
  });

  it('starts from the ref given with --from', async () => {
    const f = await gitFixture();
    const first = f.git('rev-parse', 'HEAD').trim();
    f.write('a.txt', 'changed\n');
    f.git('commit', '-q', '-am', 'second');
    const { record } = await createSession(f.repo, f.layout, { ...request, name: 'old', from: first });
    assert.equal(record.base, first);
    assert.equal(fs.readFileSync(path.join(record.path, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
  });

  it('makes a name from the task when none is given', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, { task: 'Fix the failing tests, please!', caps: {} });
    assert.equal(record.branch, 'keel/fix-the-failing-tests-please');
  });

  it('says a detached HEAD and starts from its commit', async () => {
    const f = await gitFixture();
    f.git('checkout', '-q', '--detach');
    const { record, notices } = await createSession(f.repo, f.layout, { ...request, name: 'det' });
    assert.equal(record.base, f.git('rev-parse', 'HEAD').trim());
    assert.ok(
      notices.some((n) => /HEAD is detached/.test(n)),
      notices.join('\n'),
    );
  });

  it('says the main folder’s uncommitted changes are not carried, and does not carry them', async () => {
    const f = await gitFixture();
    f.write('a.txt', 'uncommitted\n');
    f.write('new.txt', 'untracked\n');
    const { record, notices } = await createSession(f.repo, f.layout, { ...request, name: 'dirty' });
    assert.ok(
      notices.some((n) => /uncommitted changes/.test(n) && /does not carry them/.test(n)),
      notices.join('\n'),
    );
    assert.equal(fs.readFileSync(path.join(record.path, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.ok(!fs.existsSync(path.join(record.path, 'new.txt')));
    assert.equal(f.read('a.txt'), 'uncommitted\n', 'the main folder keeps its change');
  });

  it('gives a taken branch name a suffix, and says so', async () => {
    const f = await gitFixture();
    f.git('branch', 'keel/busy');
    const { record, notices } = await createSession(f.repo, f.layout, { ...request, name: 'busy' });
    assert.equal(record.branch, 'keel/busy-2');
    assert.ok(
      notices.some((n) => n.includes('keel/busy is taken') && n.includes('keel/busy-2')),
      notices.join('\n'),
    );
    const again = await createSession(f.repo, f.layout, { ...request, name: 'busy' });
    assert.equal(again.record.branch, 'keel/busy-3');
  });

  for (const bad of ['../up', 'a..b', '-rf', 'x.lock', 'sp ace', 'a/b', ''])
    it(`refuses the session name ${JSON.stringify(bad)} in one line, making nothing`, async () => {
      const f = await gitFixture();
      await assert.rejects(createSession(f.repo, f.layout, { ...request, name: bad }), (err: Error) => {
        assert.ok(err instanceof WorktreeError && !err.message.includes('\n'), err.message);
        return true;
      });
      assert.deepEqual(gitWorktreePaths(f), []);
      assert.equal(f.git('branch', '--list', 'keel/*'), '');
    });

  it('refuses a --from that looks like an option or names no commit', async () => {
    const f = await gitFixture();
    await assert.rejects(createSession(f.repo, f.layout, { ...request, name: 'x', from: '--output=/tmp/x' }), /is not a ref/);
    await assert.rejects(createSession(f.repo, f.layout, { ...request, name: 'x', from: 'no-such-branch' }), /names no commit/);
    assert.deepEqual(gitWorktreePaths(f), []);
  });

  it('links the ignored node_modules of the main folder, not a tracked vendor folder', async () => {
    const f = await gitFixture({ 'a.txt': 'one\n', '.gitignore': 'node_modules/\n', 'vendor/lib.txt': 'tracked\n' });
    f.write('node_modules/pkg/index.js', 'module.exports = 1;\n');
    const { record, notices } = await createSession(f.repo, f.layout, { ...request, name: 'deps' });
    assert.deepEqual(record.dependencies, ['node_modules']);
    const link = path.join(record.path, 'node_modules');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.equal(fs.readlinkSync(link), path.join(f.top, 'node_modules'));
    assert.equal(fs.readFileSync(path.join(link, 'pkg/index.js'), 'utf8'), 'module.exports = 1;\n');
    assert.ok(fs.lstatSync(path.join(record.path, 'vendor')).isDirectory());
    assert.ok(notices.some((n) => n.includes('linked node_modules')));
  });

  it('leaves nothing behind when git fails midway (a full disk while checking out)', async () => {
    const f = await gitFixture();
    // The real `worktree add` runs (leaving a branch, a folder and git's note), then it reports ENOSPC.
    const fullDisk: GitRunner = async (cwd, args, env) => {
      const r = await runGit(cwd, args, env);
      if (args[0] === 'worktree' && args[1] === 'add') return { code: 128, stdout: '', stderr: 'fatal: No space left on device\n' };
      return r;
    };
    await assert.rejects(createSession(f.repo, f.layout, { ...request, name: 'full' }, fullDisk), (err: Error) => {
      assert.match(err.message, /No space left on device; nothing was left behind$/);
      return true;
    });
    assert.deepEqual(gitWorktreePaths(f), []);
    assert.equal(f.git('branch', '--list', 'keel/*'), '');
    assert.ok(!fs.existsSync(path.join(f.layout.trees, 'full')));
    assert.ok(!fs.existsSync(path.join(f.layout.sessions, 'full.json')));
  });

  it('runs none of the repository’s hooks (post-checkout would run on worktree add)', async () => {
    const f = await gitFixture();
    const marker = path.join(path.dirname(f.top), 'hook-ran');
    fs.writeFileSync(path.join(f.top, '.git/hooks/post-checkout'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    f.git('checkout', '-q', '-b', 'yardstick');
    assert.ok(fs.existsSync(marker), 'yardstick: the hook runs for git itself');
    fs.rmSync(marker);
    await createSession(f.repo, f.layout, { ...request, name: 'hooks' });
    assert.ok(!fs.existsSync(marker));
  });

  it('says a folder outside any git repository is not one', async () => {
    const found = await findRepo(runGit, scratchDir('not-a-repo'));
    assert.equal(found.type, 'not_repo');
    assert.match(found.type === 'not_repo' ? found.reason : '', /is not in a git repository/);
  });
});
