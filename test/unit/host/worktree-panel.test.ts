// The side bar's worktree sessions at the host, with real git: rows with status, the cap's bar and
// files changed; Review hands the diff editors each file's base version against the worktree's;
// Apply lands the change or says the conflict, writing nothing; Discard asks once and only a yes
// removes; a name Keel has no record of does nothing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ReviewFile, WorktreePanel } from '../../../src/host/worktrees/worktree-panel.js';
import { createSession, saveRecord } from '../../../src/node/worktrees/index.js';
import type { WorktreeSessions } from '../../../src/protocol/index.js';
import { gitFixture, gitWorktreePaths } from '../node/worktrees/git-fixture.js';

function panelPorts(answer = true) {
  const seen = { posts: [] as WorktreeSessions[], told: [] as string[], asked: [] as string[], diffs: [] as ReviewFile[][] };
  const ports = {
    post: (s: WorktreeSessions) => seen.posts.push(s),
    confirm: async (q: string) => {
      seen.asked.push(q);
      return answer;
    },
    openDiffs: async (_: string, files: readonly ReviewFile[]) => void seen.diffs.push([...files]),
    tell: (m: string) => void seen.told.push(m),
  };
  return { seen, ports };
}

async function edited() {
  const f = await gitFixture({ 'a.txt': 'one\ntwo\n', 'gone.txt': 'bye\n' });
  const { record } = await createSession(f.repo, f.layout, { task: 't', caps: { usd: 2 }, name: 's1' });
  fs.writeFileSync(path.join(record.path, 'a.txt'), 'one\nTWO\n');
  fs.writeFileSync(path.join(record.path, 'new.txt'), 'new\n');
  fs.rmSync(path.join(record.path, 'gone.txt'));
  await saveRecord(f.layout, { ...record, status: 'done', costUsd: 0.5, tokens: 1200 });
  return { f, record };
}

describe('host: the worktree sessions panel', function () {
  this.timeout(30_000);

  it('posts each session’s name, branch, status, cost against its cap and files changed', async () => {
    const { f } = await edited();
    const { seen, ports } = panelPorts();
    await new WorktreePanel(f.repo, f.layout, ports).refresh();
    assert.deepEqual(seen.posts, [
      {
        sessions: [{ name: 's1', branch: 'keel/s1', status: 'done', costUsd: 0.5, tokens: 1200, capUsd: 2, spent: 0.25, filesChanged: 3 }],
        untracked: [],
      },
    ]);
  });

  it('Review opens one diff per file: the base’s version against the worktree’s', async () => {
    const { f, record } = await edited();
    const { seen, ports } = panelPorts();
    await new WorktreePanel(f.repo, f.layout, ports).act('s1', 'review');
    const files = seen.diffs[0]!;
    assert.deepEqual(
      files.map((d) => [d.path, d.before !== undefined, d.after]),
      [
        ['a.txt', true, path.join(record.path, 'a.txt')],
        ['gone.txt', true, undefined],
        ['new.txt', false, path.join(record.path, 'new.txt')],
      ],
    );
    assert.equal(fs.readFileSync(files[0]!.before!, 'utf8'), 'one\ntwo\n');
    assert.ok(!files[0]!.before!.startsWith(f.top), 'the base copies are Keel’s, not in the main folder');
  });

  it('Apply lands the change; a conflict is said and nothing is written', async () => {
    const { f } = await edited();
    f.write('a.txt', 'one\nmine\n');
    const { seen, ports } = panelPorts();
    const panel = new WorktreePanel(f.repo, f.layout, ports);
    await panel.act('s1', 'apply');
    assert.match(seen.told[0]!, /not applied — the main folder changed the same lines in a\.txt/);
    assert.equal(f.read('a.txt'), 'one\nmine\n');
    assert.ok(fs.existsSync(path.join(f.top, 'gone.txt')));
    f.git('checkout', '--', 'a.txt');
    await panel.act('s1', 'apply');
    assert.equal(f.read('a.txt'), 'one\nTWO\n');
    assert.equal(seen.posts.at(-1)!.sessions[0]!.status, 'applied');
  });

  it('Discard asks once; no keeps everything, yes removes worktree and branch', async () => {
    const { f } = await edited();
    const no = panelPorts(false);
    await new WorktreePanel(f.repo, f.layout, no.ports).act('s1', 'discard');
    assert.equal(no.seen.asked.length, 1);
    assert.equal(gitWorktreePaths(f).length, 1);
    const yes = panelPorts(true);
    await new WorktreePanel(f.repo, f.layout, yes.ports).act('s1', 'discard');
    assert.deepEqual(gitWorktreePaths(f), []);
    assert.equal(f.git('branch', '--list', 'keel/*'), '');
    assert.deepEqual(yes.seen.posts.at(-1), { sessions: [], untracked: [] });
  });

  it('does nothing for a name Keel has no record of', async () => {
    const { f } = await edited();
    const { seen, ports } = panelPorts();
    await new WorktreePanel(f.repo, f.layout, ports).act('nope', 'discard');
    assert.deepEqual([seen.asked, seen.told], [[], ['Keel: there is no worktree session named nope.']]);
    assert.equal(gitWorktreePaths(f).length, 1);
  });
});
