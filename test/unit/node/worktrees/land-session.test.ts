// A session's change, reviewed and landed with real git: diff shows edits and new files (never
// the linked dependencies), apply writes them to the main folder only when every hunk fits — the
// main folder's own change to the same lines stops it with both sides intact — and --merge
// merges the branch, leaving git's conflict markers when asked to.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySession, createSession, runGit, sessionChanges } from '../../../../src/node/worktrees/index.js';
import { gitFixture } from './git-fixture.js';

async function sessionWithEdit(files?: Record<string, string>) {
  const f = await gitFixture(files);
  const { record } = await createSession(f.repo, f.layout, { task: 't', caps: {}, name: 'edit' });
  const inTree = (rel: string) => path.join(record.path, rel);
  fs.writeFileSync(inTree('a.txt'), 'one\nTWO\nthree\n');
  fs.writeFileSync(inTree('added.txt'), 'new file\n');
  return { f, record, inTree };
}

describe('worktree sessions: review and land', function () {
  this.timeout(30_000);

  it('diff holds the whole change: edits, new files and commits on the branch, not the dependency links', async () => {
    const { f, record, inTree } = await sessionWithEdit({ 'a.txt': 'one\ntwo\nthree\n', '.gitignore': 'node_modules/\n' });
    void f;
    fs.writeFileSync(inTree('committed.txt'), 'c\n');
    await runGit(record.path, ['add', 'committed.txt']);
    await runGit(record.path, ['-c', 'user.name=T', '-c', 'user.email=t@x.invalid', 'commit', '-q', '-m', 'c']);
    const changes = await sessionChanges(runGit, record);
    assert.deepEqual(changes.files.sort(), ['a.txt', 'added.txt', 'committed.txt']);
    assert.deepEqual(
      changes.changed.map((c) => `${c.change} ${c.path}`),
      ['modified a.txt', 'added added.txt', 'added committed.txt'],
    );
    assert.match(changes.patch, /^-two$/m);
    assert.match(changes.patch, /^\+TWO$/m);
    assert.equal((await runGit(record.path, ['status', '--porcelain'])).stdout.includes('A '), false, 'the worktree’s index is untouched');
  });

  it('leaves a linked node_modules out of the change', async () => {
    const f = await gitFixture({ 'a.txt': 'x\n', '.gitignore': 'node_modules/\n' });
    f.write('node_modules/p/i.js', '1\n');
    const { record } = await createSession(f.repo, f.layout, { task: 't', caps: {}, name: 'deps' });
    assert.deepEqual((await sessionChanges(runGit, record)).files, []);
  });

  it('apply writes the change into the main folder, uncommitted', async () => {
    const { f, record } = await sessionWithEdit();
    const outcome = await applySession(runGit, f.top, record, 'patch');
    assert.deepEqual(outcome, { type: 'applied', files: ['a.txt', 'added.txt'] });
    assert.equal(f.read('a.txt'), 'one\nTWO\nthree\n');
    assert.equal(f.read('added.txt'), 'new file\n');
  });

  it('apply keeps the main folder’s changes to other lines', async () => {
    const { f, record } = await sessionWithEdit({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' });
    f.write('b.txt', 'b changed in main\n');
    assert.equal((await applySession(runGit, f.top, record, 'patch')).type, 'applied');
    assert.equal(f.read('b.txt'), 'b changed in main\n');
  });

  it('apply refuses when the main folder changed the same lines, and writes nothing on either side', async () => {
    const { f, record, inTree } = await sessionWithEdit();
    f.write('a.txt', 'one\nmain’s two\nthree\n');
    const outcome = await applySession(runGit, f.top, record, 'patch');
    assert.equal(outcome.type, 'conflict');
    assert.deepEqual(outcome.type === 'conflict' ? outcome.files : [], ['a.txt']);
    assert.equal(f.read('a.txt'), 'one\nmain’s two\nthree\n');
    assert.ok(!fs.existsSync(path.join(f.top, 'added.txt')), 'not even the file that would fit');
    assert.equal(fs.readFileSync(inTree('a.txt'), 'utf8'), 'one\nTWO\nthree\n');
  });

  it('apply refuses a committed change to the same lines too', async () => {
    const { f, record } = await sessionWithEdit();
    f.write('a.txt', 'one\ncommitted two\nthree\n');
    f.git('commit', '-q', '-am', 'main moved');
    assert.equal((await applySession(runGit, f.top, record, 'patch')).type, 'conflict');
    assert.equal(f.read('a.txt'), 'one\ncommitted two\nthree\n');
  });

  it('--merge merges the branch, with the session’s change committed on it', async () => {
    const { f, record } = await sessionWithEdit();
    const outcome = await applySession(runGit, f.top, record, 'merge');
    assert.equal(outcome.type, 'merged');
    assert.equal(f.read('a.txt'), 'one\nTWO\nthree\n');
    assert.match(f.git('log', '-1', '--format=%s', record.branch), /keel: session edit/);
  });

  it('--merge on the same lines leaves git’s conflict markers, both sides in the file', async () => {
    const { f, record } = await sessionWithEdit();
    f.write('a.txt', 'one\nmain two\nthree\n');
    f.git('commit', '-q', '-am', 'main moved');
    const outcome = await applySession(runGit, f.top, record, 'merge');
    assert.deepEqual(outcome, { type: 'merge_conflict', files: ['a.txt'] });
    const text = f.read('a.txt');
    assert.ok(text.includes('<<<<<<<') && text.includes('main two') && text.includes('TWO'), text);
  });

  it('says there is nothing to apply when the session changed nothing', async () => {
    const f = await gitFixture();
    const { record } = await createSession(f.repo, f.layout, { task: 't', caps: {}, name: 'idle' });
    assert.deepEqual(await applySession(runGit, f.top, record, 'patch'), { type: 'nothing' });
  });
});
