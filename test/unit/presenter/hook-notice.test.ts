// The transcript shows a hook that blocked or failed as a notice at once (its reason, the hook and
// where it is defined); a hook that let things through adds nothing, nor does a PreToolUse hook
// (the call's card shows its block).
import assert from 'node:assert/strict';
import type { HostMessage, TranscriptDelta } from '../../../src/protocol/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { EventFactory } from './events.js';
import { FakeClock } from './fake-clock.js';

describe('presenter: hooks', () => {
  it('shows a blocking hook as a warning notice, flushed at once; an allowing or PreToolUse hook adds nothing', () => {
    const posts: HostMessage[] = [];
    const f = new EventFactory();
    const presenter = new Presenter({ clock: new FakeClock(), post: (m) => posts.push(m), kernel: () => f.state, contextWindow: 200_000 });
    const ops = () => posts.filter((p): p is TranscriptDelta => p.type === 'transcript/delta').flatMap((d) => d.ops);
    const ran = {
      type: 'hook_ran' as const,
      point: 'PreToolUse' as const,
      hook: 'sh .keel/block-rm.sh',
      source: '.keel/hooks.json:6',
      tool: 'run_command',
      intentId: 'i1',
      durationMs: 12,
    };
    presenter.handle(f.out({ ...ran, outcome: 'allow' }));
    presenter.handle(f.out({ ...ran, outcome: 'block', reason: 'Deleting build/ is not allowed here.' }));
    assert.equal(ops().length, 0, "the call's card shows a PreToolUse block");
    presenter.handle(f.out({ ...ran, point: 'PostToolUse', outcome: 'block', reason: 'Deleting build/ is not allowed here.' }));
    const added = ops().find((o) => o.type === 'item/add');
    assert.deepEqual(added && added.type === 'item/add' ? added.item : undefined, {
      kind: 'notice',
      id: 'h3',
      level: 'warning',
      text: 'A hook objected to the result of run_command: Deleting build/ is not allowed here. — sh .keel/block-rm.sh (.keel/hooks.json:6)',
    });
  });
});
