// A real full disk while a worktree is made: Keel's folder on a 64 KiB tmpfs and a checkout that
// does not fit. git fails midway (its branch and its note of the worktree already made); the
// session is undone whole and the error is one line. Needs root to mount (skipped otherwise).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSession, sessionLayout } from '../../../../src/node/worktrees/index.js';
import { scratchDir } from '../../../support/scratch.js';
import { gitFixture, gitWorktreePaths } from './git-fixture.js';

describe('worktree sessions: a full disk', function () {
  this.timeout(30_000);
  let mounted: string | undefined;

  before(function () {
    const at = path.join(scratchDir('full-disk'), 'tiny');
    fs.mkdirSync(at);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', at], { stdio: 'ignore' });
      mounted = at;
    } catch {
      this.skip();
    }
  });

  after(() => {
    if (mounted) execFileSync('umount', [mounted]);
  });

  it('fails with one line and leaves no worktree, branch, folder or record', async () => {
    // Random bytes do not compress: git's checkout needs the full 512 KiB.
    const f = await gitFixture();
    fs.writeFileSync(path.join(f.top, 'big.bin'), randomBytes(512 * 1024));
    f.git('add', '-A');
    f.git('commit', '-q', '-m', 'big');
    const layout = sessionLayout(f.repo, { ...f.env, XDG_CONFIG_HOME: mounted! });
    await assert.rejects(createSession(f.repo, layout, { task: 't', caps: {}, name: 'big' }), (err: Error) => {
      assert.match(err.message, /^could not make the worktree for keel\/big: .*; nothing was left behind$/);
      assert.ok(!err.message.includes('\n'));
      return true;
    });
    assert.deepEqual(gitWorktreePaths(f), []);
    assert.equal(f.git('branch', '--list', 'keel/*'), '');
    assert.deepEqual(fs.readdirSync(layout.trees), []);
    assert.ok(!fs.existsSync(path.join(layout.sessions, 'big.json')));
  });
});
