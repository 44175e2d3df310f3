import assert from 'node:assert/strict';
import { FrameBatcher } from '../../../media/frame-batcher.js';

describe('webview: frame batcher', () => {
  it('applies a lone message at once, then at most one batch per frame', () => {
    const frames: (() => void)[] = [];
    const batches: number[][] = [];
    const b = new FrameBatcher<number>(
      (batch) => batches.push(batch),
      (cb) => frames.push(cb),
    );
    b.push(1);
    b.push(2);
    b.push(3);
    assert.deepEqual(batches, [[1]]);
    frames.shift()!();
    assert.deepEqual(batches, [[1], [2, 3]]);
    b.push(4);
    assert.deepEqual(batches.length, 2, 'this frame already had its update');
    frames.shift()!();
    assert.deepEqual(batches, [[1], [2, 3], [4]]);
    frames.shift()!();
    b.push(5);
    assert.deepEqual(batches.at(-1), [5], 'idle again: immediate');
  });

  it('never makes more than 60 updates in a second, even on a fast frame clock', () => {
    let clock = 0;
    const frames: (() => void)[] = [];
    const updates: number[] = [];
    const b = new FrameBatcher<number>(
      () => updates.push(clock),
      (cb) => frames.push(cb),
      () => clock,
    );
    // A message every 2 ms for 5 s, on a 61 Hz frame clock.
    let nextFrameAt = 1000 / 61;
    let pushed = 0;
    for (let t = 0; t < 5000; t += 2) {
      clock = t;
      if (t >= nextFrameAt) {
        nextFrameAt += 1000 / 61;
        const due = frames.splice(0);
        for (const f of due) f();
      }
      b.push(pushed++);
    }
    for (const at of updates) {
      const inWindow = updates.filter((u) => u > at - 1000 && u <= at).length;
      assert.ok(inWindow <= 60, `${inWindow} updates in the second up to ${at} ms`);
    }
    assert.ok(updates.length >= 5 * 59, `${updates.length} updates in 5 s: still about one per frame`);
  });
});
