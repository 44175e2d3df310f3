// Listing and discarding sessions against git's own view: the list names exactly the worktrees
// `git worktree list` has under Keel's folder, says a folder deleted by hand and a Keel that
// exited mid-run, lists untracked worktrees without deleting them; discard removes worktree and
// branch, pruning git's note when the folder is already gone.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSession, discardSession, listSessions, readRecord, runGit, saveRecord } from '../../../../src/node/worktrees/index.js';
import { gitFixture, gitWorktreePaths } from './git-fixture.js';

const request = (name: string) => ({ task: 't', caps: { usd: 1 }, name });

describe('worktree sessions: list and discard', function () {
  this.timeout(30_000);

  it('lists each session with its branch, status and files changed, agreeing with git worktree list', async () => {
    const f = await gitFixture();
    const a = (await createSession(f.repo, f.layout, request('a'))).record;
    const b = (await createSession(f.repo, f.layout, request('b'))).record;
    fs.writeFileSync(path.join(b.path, 'a.txt'), 'edited\n');
    const listing = await listSessions(runGit, f.repo, f.layout);
    assert.deepEqual(
      listing.sessions.map((s) => [s.record.name, s.record.branch, s.status, s.filesChanged]),
      [
        ['a', 'keel/a', 'created', 0],
        ['b', 'keel/b', 'created', 1],
      ],
    );
    assert.deepEqual(listing.sessions.map((s) => s.record.path).sort(), gitWorktreePaths(f).sort());
    assert.deepEqual([a.caps, b.caps], [{ usd: 1 }, { usd: 1 }]);
  });

  it('acts on no record edited to name a folder or branch Keel did not make', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, request('x'));
    const victim = fs.mkdtempSync(path.join(path.dirname(f.layout.root), 'victim-'));
    await saveRecord(f.layout, { ...record, path: victim });
    assert.equal(readRecord(f.layout, 'x'), undefined);
    await saveRecord(f.layout, { ...record, branch: 'main' });
    assert.equal(readRecord(f.layout, 'x'), undefined);
    await saveRecord(f.layout, record);
    assert.equal(readRecord(f.layout, 'x')?.path, record.path);
    assert.ok(fs.existsSync(victim));
  });

  it('says a worktree folder deleted by hand is missing', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, request('gone'));
    fs.rmSync(record.path, { recursive: true, force: true });
    const [row] = (await listSessions(runGit, f.repo, f.layout)).sessions;
    assert.match(row!.status, /^missing: its folder was deleted by hand/);
  });

  it('says a session whose Keel process is gone stopped, not running', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, request('crash'));
    await saveRecord(f.layout, { ...record, status: 'running', pid: 2 ** 22 + 7 });
    const [row] = (await listSessions(runGit, f.repo, f.layout)).sessions;
    assert.equal(row!.status, 'stopped (Keel exited mid-run)');
    await saveRecord(f.layout, { ...record, status: 'running', pid: process.pid });
    assert.equal((await listSessions(runGit, f.repo, f.layout)).sessions[0]!.status, 'running');
  });

  it('says a session stopped at its cap in words', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, request('capped'));
    await saveRecord(f.layout, { ...record, status: 'over_budget', costUsd: 1.02 });
    assert.equal((await listSessions(runGit, f.repo, f.layout)).sessions[0]!.status, 'stopped at its cap');
  });

  it('lists a worktree Keel made but no longer tracks, and leaves it in place', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, request('orphan'));
    fs.rmSync(path.join(f.layout.sessions, 'orphan.json'));
    const listing = await listSessions(runGit, f.repo, f.layout);
    assert.deepEqual(listing.sessions, []);
    assert.deepEqual(listing.untracked, [{ path: record.path, branch: 'keel/orphan', prunable: false }]);
    assert.ok(fs.existsSync(record.path));
    assert.deepEqual(gitWorktreePaths(f), [record.path]);
  });

  it('does not list the person’s own worktrees elsewhere as Keel’s', async () => {
    const f = await gitFixture();
    f.git('worktree', 'add', '-q', '-b', 'mine', path.join(path.dirname(f.top), 'mine'));
    const listing = await listSessions(runGit, f.repo, f.layout);
    assert.deepEqual([listing.sessions, listing.untracked], [[], []]);
  });

  it('discard removes the worktree, the branch and the record', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, request('bye'));
    fs.writeFileSync(path.join(record.path, 'a.txt'), 'edited\n');
    assert.deepEqual(await discardSession(runGit, f.repo, f.layout, record), []);
    assert.deepEqual(gitWorktreePaths(f), []);
    assert.equal(f.git('branch', '--list', 'keel/*'), '');
    assert.ok(!fs.existsSync(record.path));
    assert.deepEqual((await listSessions(runGit, f.repo, f.layout)).sessions, []);
    assert.equal(f.read('a.txt'), 'one\ntwo\nthree\n', 'the main folder is untouched');
  });

  it('discard of a folder deleted by hand prunes git’s note, says so, and removes the branch', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, request('pruned'));
    fs.rmSync(record.path, { recursive: true, force: true });
    const notices = await discardSession(runGit, f.repo, f.layout, record);
    assert.ok(
      notices.some((n) => n.includes('already deleted')),
      notices.join('\n'),
    );
    assert.deepEqual(gitWorktreePaths(f), []);
    assert.equal(f.git('branch', '--list', 'keel/*'), '');
  });
});
