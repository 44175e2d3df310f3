import assert from 'node:assert/strict';
import { BlockSplitter } from '../../../media/markdown/block-splitter.js';
import { FrameBatcher } from '../../../media/frame-batcher.js';

function split(text: string, chunk: number): string[] {
  const s = new BlockSplitter();
  const blocks: string[] = [];
  for (let i = 0; i < text.length; i += chunk) blocks.push(...s.push(text.slice(i, i + chunk)));
  return [...blocks, ...s.end()];
}

describe('webview: block splitter', () => {
  const doc = 'Para one\nstill one\n\n\n## Head\n\nText before\n```js\nlet a = 1;\n\nlet b = 2;\n```\nafter fence\n\n- a\n- b\n';

  it('splits at blank lines and fences, never inside a fence, whatever the chunking', () => {
    const expected = ['Para one\nstill one\n', '## Head\n', 'Text before\n', '```js\nlet a = 1;\n\nlet b = 2;\n```\n', 'after fence\n', '- a\n- b\n'];
    for (const chunk of [1, 2, 3, 7, 1000]) assert.deepEqual(split(doc, chunk), expected, `chunk ${chunk}`);
  });

  it('reports an open fence and keeps only the open block', () => {
    const s = new BlockSplitter();
    assert.deepEqual(s.push('intro\n\n~~~\ncode\n'), ['intro\n']);
    assert.equal(s.inFence, true);
    assert.equal(s.openText, '~~~\ncode\n');
    assert.deepEqual(s.push('```\nstill code\n~~~\n'), ['~~~\ncode\n```\nstill code\n~~~\n']);
    assert.equal(s.inFence, false);
  });

  it('treats inline triple backticks with more backticks on the line as text', () => {
    assert.deepEqual(split('```a``` is inline\n\nnext', 4), ['```a``` is inline\n', 'next']);
  });
});

describe('webview: frame batcher', () => {
  it('applies a lone message at once, then at most one batch per frame', () => {
    const frames: (() => void)[] = [];
    const batches: number[][] = [];
    const b = new FrameBatcher<number>((batch) => batches.push(batch), (cb) => frames.push(cb));
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
});
