// `keel run --worktree`'s optional value: bare, `=NAME`, or `NAME` before the task; `--from`
// only with it, and never for keel resume.
import assert from 'node:assert/strict';
import { parseResumeArgs, parseRunArgs, UsageError } from '../../../src/cli/args.js';

const run = (...args: string[]) => parseRunArgs(['run', ...args], '/tmp');

describe('keel run --worktree flags', () => {
  it('takes no name, =NAME, or a bare word followed by the task', () => {
    assert.deepEqual(run('--worktree', 'fix the tests').worktree, {});
    assert.equal(run('--worktree', 'fix the tests').task, 'fix the tests');
    assert.deepEqual(run('--worktree=fix', 'task').worktree, { name: 'fix' });
    assert.deepEqual(run('--worktree', 'fix', 'task').worktree, { name: 'fix' });
    assert.equal(run('--worktree', 'refactor').task, 'refactor', 'a last bare word is the task');
    assert.equal(run('fix it').worktree, undefined);
  });

  it('takes --from REF with --worktree only', () => {
    assert.deepEqual(run('--worktree', '--from', 'v1.2', 'task').worktree, { from: 'v1.2' });
    assert.throws(
      () => run('--from', 'v1.2', 'task'),
      (e: Error) => e instanceof UsageError && /--from is for keel run --worktree/.test(e.message),
    );
    assert.throws(() => parseResumeArgs(['log.jsonl', '--from', 'main'], '/tmp'), UsageError);
  });

  it('refuses --worktree given twice', () => {
    assert.throws(() => run('--worktree', '--worktree=b', 'task'), /given twice/);
  });
});
