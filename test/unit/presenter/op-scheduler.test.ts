import assert from 'node:assert/strict';
import type { TranscriptDelta } from '../../../src/protocol/index.js';
import { OpScheduler } from '../../../src/host/presenter/index.js';
import { FakeClock } from './fake-clock.js';

function setup(frameMs = 16) {
  const clock = new FakeClock();
  const posts: TranscriptDelta[] = [];
  const scheduler = new OpScheduler({ clock, post: (d) => posts.push(d), frameMs, maxTailChars: 100 });
  return { clock, posts, scheduler };
}

describe('presenter: op scheduler', () => {
  it('coalesces appends within a frame into one op in one post', () => {
    const { clock, posts, scheduler } = setup();
    scheduler.push([{ type: 'text/append', id: 'a1', text: 'x' }]);
    clock.advance(0);
    assert.equal(posts.length, 1, 'the first op after idle goes out on the next tick');
    for (let i = 0; i < 50; i++) scheduler.push([{ type: 'text/append', id: 'a1', text: String(i % 10) }]);
    assert.equal(posts.length, 1);
    clock.advance(16);
    assert.equal(posts.length, 2);
    assert.deepEqual(posts[1]!.ops, [{ type: 'text/append', id: 'a1', text: '0123456789'.repeat(5) }]);
  });

  it('keeps one activity op per post, the latest, without stopping appends from merging', () => {
    const { clock, posts, scheduler } = setup();
    scheduler.push([{ type: 'text/append', id: 'a1', text: 'x' }]);
    clock.advance(0);
    for (let bytes = 100; bytes <= 3000; bytes += 100)
      scheduler.push([
        { type: 'activity/set', activity: { type: 'tool_input', call: 0, tool: 'write_file', bytes } },
        { type: 'text/append', id: 'a1', text: '.' },
      ]);
    clock.advance(16);
    assert.deepEqual(posts[1]!.ops, [
      { type: 'activity/set', activity: { type: 'tool_input', call: 0, tool: 'write_file', bytes: 3000 } },
      { type: 'text/append', id: 'a1', text: '.'.repeat(30) },
    ]);
  });

  it('posts at most once per frame under a steady stream', () => {
    const { clock, posts, scheduler } = setup();
    for (let ms = 0; ms < 1000; ms++) {
      scheduler.push([{ type: 'text/append', id: 'a1', text: 'y' }]);
      clock.advance(1);
    }
    clock.advance(100);
    assert.ok(posts.length <= Math.ceil(1000 / 16) + 1, `${posts.length} posts`);
    assert.ok(posts.length >= 50);
    const text = posts
      .flatMap((p) => p.ops)
      .map((op) => (op.type === 'text/append' ? op.text : ''))
      .join('');
    assert.equal(text, 'y'.repeat(1000), 'nothing lost or reordered');
  });

  it('flushes urgent ops at once, together with what was pending, in order', () => {
    const { posts, scheduler } = setup();
    scheduler.push([{ type: 'text/append', id: 'a1', text: 'before' }]);
    scheduler.push([{ type: 'status/set', status: 'waiting_for_approval' }], true);
    assert.equal(posts.length, 1);
    assert.deepEqual(
      posts[0]!.ops.map((o) => o.type),
      ['text/append', 'status/set'],
    );
  });

  it('numbers deltas with consecutive seqs', () => {
    const { clock, posts, scheduler } = setup();
    for (let i = 0; i < 10; i++) {
      scheduler.push([{ type: 'text/append', id: 'a1', text: 'z' }], i % 3 === 0);
      clock.advance(20);
    }
    assert.deepEqual(
      posts.map((p) => p.seq),
      posts.map((_, i) => i + 1),
    );
    assert.equal(scheduler.lastSeq, posts.length);
  });

  it("merges appends across other items' appends but never across other ops", () => {
    const { posts, scheduler } = setup();
    scheduler.push([
      { type: 'text/append', id: 'a1', text: 'a' },
      { type: 'intent/progress', id: 'i1', chunk: 'p' },
      { type: 'text/append', id: 'a1', text: 'b' },
      { type: 'status/set', status: 'executing' },
      { type: 'text/append', id: 'a1', text: 'c' },
    ]);
    scheduler.flush();
    assert.deepEqual(posts[0]!.ops, [
      { type: 'text/append', id: 'a1', text: 'ab' },
      { type: 'intent/progress', id: 'i1', chunk: 'p' },
      { type: 'status/set', status: 'executing' },
      { type: 'text/append', id: 'a1', text: 'c' },
    ]);
  });

  it('keeps only the tail of live tool output, marked as a replacement', () => {
    const { posts, scheduler } = setup();
    for (let i = 0; i < 30; i++) scheduler.push([{ type: 'intent/progress', id: 'i1', chunk: `line ${i}\n` }]);
    scheduler.flush();
    const op = posts[0]!.ops[0]!;
    assert.equal(op.type, 'intent/progress');
    if (op.type !== 'intent/progress') return;
    assert.equal(op.chunk.length, 100);
    assert.ok(op.chunk.endsWith('line 29\n'));
    assert.equal(op.replace, true);
  });

  it('discards pending ops for a snapshot and leaves no timer behind', () => {
    const { clock, posts, scheduler } = setup();
    scheduler.push([{ type: 'text/append', id: 'a1', text: 'x' }]);
    scheduler.discardPending();
    assert.equal(clock.pendingTimers, 0);
    clock.advance(100);
    assert.equal(posts.length, 0);
  });
});
