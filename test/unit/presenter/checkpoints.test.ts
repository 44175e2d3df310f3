// Checkpoints as the transcript shows them: one item per step that changed files (with a note
// on files too large to keep), a Files changed summary at the end of a run with each file's
// net change, its +/− counts filled in place, and the same items when the task is reloaded.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { CheckpointFile, CheckpointRecord } from '../../../src/kernel/index.js';
import type { ChangesItem, HostMessage, TranscriptDelta } from '../../../src/protocol/index.js';
import { HostMessageSchema } from '../../../src/protocol/index.js';
import { withLineCounts } from '../../../src/host/tasks/change-counts.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { scratchDir } from '../../support/scratch.js';
import { EventFactory } from './events.js';
import { FakeClock } from './fake-clock.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function setup() {
  const posts: HostMessage[] = [];
  const f = new EventFactory();
  const presenter = new Presenter({ clock: new FakeClock(), post: (m) => posts.push(m), kernel: () => f.state });
  const ops = () => posts.filter((p): p is TranscriptDelta => p.type === 'transcript/delta').flatMap((d) => d.ops);
  return { presenter, f, posts, ops };
}

const file = (p: string, before: string | null, after: string | null, extra: Partial<CheckpointFile> = {}): CheckpointFile => ({
  path: p,
  before: before === null ? null : sha(before),
  after: after === null ? null : sha(after),
  ...extra,
});

describe('presenter: checkpoints and Files changed', () => {
  it('shows each step that changed files, notes skipped files, and sums up the run at its end', () => {
    const { presenter, f } = setup();
    const events = [
      f.event({ type: 'user_message', text: 'go' }),
      f.event({ type: 'turn_started', turn: 1 }),
      f.event({
        type: 'checkpoint_recorded',
        step: 1,
        kind: 'step',
        intentIds: ['i1'],
        files: [file('a.txt', 'a', 'a2'), file('new.txt', null, 'n')],
      }),
      f.event({ type: 'turn_started', turn: 2 }),
      f.event({
        type: 'checkpoint_recorded',
        step: 2,
        kind: 'step',
        intentIds: ['i2'],
        files: [file('a.txt', 'a2', 'a3'), file('big.bin', 'x', 'y', { skipped: { reason: 'too_large', size: 12 * 1024 * 1024 } })],
      }),
      f.event({ type: 'run_finished', reason: 'completed' }),
    ];
    for (const event of events) presenter.handle({ kind: 'event', event });
    const items = presenter.items().filter((i) => i.kind === 'checkpoint' || i.kind === 'changes');
    assert.deepEqual(
      items.map((i) => i.kind),
      ['checkpoint', 'checkpoint', 'changes'],
    );
    const second = items[1]!;
    assert.ok(second.kind === 'checkpoint');
    assert.equal(second.seq, 5);
    assert.deepEqual(second.files[1], { path: 'big.bin', change: 'modified', skippedBytes: 12 * 1024 * 1024 });
    const summary = items[2] as ChangesItem;
    assert.equal(summary.fromSeq, 3);
    assert.equal(summary.toSeq, 5);
    assert.deepEqual(
      summary.files.map((x) => [x.path, x.change]),
      [
        ['a.txt', 'modified'],
        ['new.txt', 'added'],
        ['big.bin', 'modified'],
      ],
    );
    // The same items after a reload (the presenter rebuilt from the log), valid on the wire.
    const reloaded = setup();
    reloaded.presenter.load(events, 'task-1');
    assert.deepEqual(
      reloaded.presenter.items().filter((i) => i.kind === 'checkpoint' || i.kind === 'changes'),
      items,
    );
    reloaded.presenter.postSnapshot();
    assert.ok(HostMessageSchema.safeParse(reloaded.posts.at(-1)).success);
  });

  it('leaves a file the run put back as it was out of the summary, and a run without changes has none', () => {
    const { presenter, f } = setup();
    presenter.handle(f.out({ type: 'user_message', text: 'go' }));
    presenter.handle(f.out({ type: 'checkpoint_recorded', step: 1, kind: 'step', intentIds: [], files: [file('a.txt', 'a', 'b')] }));
    presenter.handle(f.out({ type: 'checkpoint_recorded', step: 2, kind: 'step', intentIds: [], files: [file('a.txt', 'b', 'a')] }));
    presenter.handle(f.out({ type: 'run_finished', reason: 'completed' }));
    presenter.handle(f.out({ type: 'user_message', text: 'again' }));
    presenter.handle(f.out({ type: 'run_cancelled' }));
    assert.equal(presenter.items().filter((i) => i.kind === 'changes').length, 0);
  });

  it('marks a run’s summary undone once restores put every file back as it was before the run', () => {
    const { presenter, f } = setup();
    presenter.handle(f.out({ type: 'user_message', text: 'go' }));
    presenter.handle(
      f.out({
        type: 'checkpoint_recorded',
        step: 1,
        kind: 'step',
        intentIds: [],
        files: [file('a.txt', 'a', 'b'), file('n.txt', null, 'n')],
      }),
    );
    presenter.handle(f.out({ type: 'run_finished', reason: 'completed' }));
    const summary = () => presenter.items().find((i): i is ChangesItem => i.kind === 'changes')!;
    assert.equal(summary().undone, undefined);
    // A restore of only part of it (a step's "Restore to here") leaves the Undo live.
    presenter.handle(f.out({ type: 'checkpoint_recorded', step: 2, kind: 'restore', intentIds: [], files: [file('n.txt', 'n', null)] }));
    assert.equal(summary().undone, undefined);
    presenter.handle(f.out({ type: 'checkpoint_recorded', step: 3, kind: 'restore', intentIds: [], files: [file('a.txt', 'b', 'a')] }));
    assert.equal(summary().undone, true);
  });

  it('fills in +/− counts in place: before bytes from the store, after bytes from disk while unchanged', async () => {
    const { presenter, f, ops } = setup();
    const root = scratchDir('counts');
    const blobs = new Map([[sha('one\ntwo\nthree\n'), 'one\ntwo\nthree\n']]);
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n2\nthree\nfour\n');
    fs.writeFileSync(path.join(root, 'n.txt'), 'x\ny\n');
    const cp = {
      type: 'checkpoint_recorded' as const,
      step: 1,
      kind: 'step' as const,
      intentIds: [],
      files: [file('a.txt', 'one\ntwo\nthree\n', 'one\n2\nthree\nfour\n'), file('n.txt', null, 'x\ny\n'), file('gone.txt', 'lost', null)],
    };
    const recorded = f.event(cp);
    presenter.handle({ kind: 'event', event: recorded });
    presenter.handle(f.out({ type: 'run_finished', reason: 'completed' }));
    const summary = presenter.items().find((i): i is ChangesItem => i.kind === 'changes')!;
    const checkpoints: CheckpointRecord[] = [{ seq: recorded.seq, step: 1, kind: 'step', files: cp.files }];
    const counted = await withLineCounts(summary, checkpoints, {
      root,
      read: async (h) => (blobs.has(h) ? new TextEncoder().encode(blobs.get(h)!) : undefined),
      hashes: async (paths) =>
        Object.fromEntries(
          paths.map((p) => [p, fs.existsSync(path.join(root, p)) ? sha(fs.readFileSync(path.join(root, p), 'utf8')) : null]),
        ),
    });
    assert.deepEqual(
      counted.files.map((x) => [x.path, x.added, x.removed]),
      [
        ['a.txt', 2, 1],
        ['n.txt', 2, 0],
        // Its bytes were not kept: no counts rather than wrong ones.
        ['gone.txt', undefined, undefined],
      ],
    );
    presenter.replaceItem(counted);
    presenter.flush();
    assert.deepEqual(
      presenter.items().find((i) => i.kind === 'changes'),
      counted,
    );
    assert.ok(ops().some((o) => o.type === 'item/replace' && o.item.id === summary.id));
  });
});
