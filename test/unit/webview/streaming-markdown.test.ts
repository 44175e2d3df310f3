import './dom-env.js';
import assert from 'node:assert/strict';
import { markdownStats } from '../../../media/markdown/stats.js';
import { makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

function streamInto(text: string, chunk = 3) {
  const t = makeApp();
  t.receive(snapshot());
  t.frame();
  const d = deltas();
  t.receive(d({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: '' } }));
  for (let i = 0; i < text.length; i += chunk) {
    t.receive(d({ type: 'text/append', id: 'a1', text: text.slice(i, i + chunk) }));
    t.frame();
  }
  return { ...t, d };
}

describe('webview: streamed markdown', function () {
  this.timeout(20_000); // jsdom parses each rendered block slowly
  it('renders streamed deltas as markdown DOM', () => {
    const t = streamInto('# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n');
    const md = q(t.root, '[data-testid="assistant-text"]');
    assert.equal(q(md, 'h1').textContent, 'Title');
    assert.equal(q(md, 'strong').textContent, 'bold');
    assert.equal(q(md, 'p code').textContent, 'code');
    assert.deepEqual(
      Array.from(md.querySelectorAll('ul > li'), (li) => li.textContent),
      ['one', 'two'],
    );
    assert.equal(md.querySelectorAll('ol > li').length, 2);
    assert.equal(q(md, 'blockquote').textContent?.trim(), 'quoted');
  });

  it('never re-renders a finished block: its node survives and parses stay per-frame', () => {
    const t = streamInto('First paragraph.\n\nSecond ');
    const first = q(t.root, '.md-block:not(.md-open)');
    assert.equal(first.textContent?.trim(), 'First paragraph.');
    first.setAttribute('data-probe', 'kept');
    const before = markdownStats.parses;
    const frames = 50;
    for (let i = 0; i < frames; i++) {
      t.receive(t.d({ type: 'text/append', id: 'a1', text: 'word ' }));
      t.frame();
    }
    // One parse of the open block per frame; the finished block is never parsed again.
    assert.equal(markdownStats.parses - before, frames);
    assert.equal(q(t.root, '[data-probe="kept"]'), first);
    assert.match(q(t.root, '.md-open').textContent ?? '', /^Second (word ){49}word\s*$/);
  });

  it('applies each delta as it arrives, without waiting for a frame (the host batches per frame)', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const d = deltas();
    t.receive(d({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: '' } }));
    t.receive(d({ type: 'text/append', id: 'a1', text: 'x' }));
    assert.equal(q(t.root, '.md-open').textContent?.trim(), 'x', 'the first append is shown at once');
    t.receive(d({ type: 'text/append', id: 'a1', text: 'y' }));
    assert.equal(q(t.root, '.md-open').textContent?.trim(), 'xy', 'and so is the second, in the same frame');
  });

  it('highlights a finished code block and adds a copy button that copies through the host', () => {
    const t = streamInto('Look:\n\n```ts\nconst answer: number = 42;\n```\n\nDone.');
    const pre = q(t.root, '[data-testid="assistant-text"] pre');
    assert.ok(pre.querySelector('code.hljs.language-ts'), pre.outerHTML);
    assert.ok(pre.querySelector('.hljs-keyword'), 'keywords are highlighted');
    const copy = q(pre.closest('.code-block')!, '[data-testid="copy-code"]');
    copy.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    assert.deepEqual(t.posted.at(-1), { type: 'clipboard/copy', text: 'const answer: number = 42;' });
  });

  it('shows an open code fence as plain text until it closes', () => {
    const t = streamInto('```python\ndef f():\n    return 1\n');
    const open = q(t.root, '.md-open pre code.streaming');
    assert.equal(open.textContent, 'def f():\n    return 1\n');
    t.receive(t.d({ type: 'text/append', id: 'a1', text: '```\n' }));
    t.frame();
    assert.ok(t.root.querySelector('.md-block:not(.md-open) code.language-python .hljs-keyword'));
  });

  it('freezes the last block when the text is done', () => {
    const t = streamInto('Only block');
    t.receive(t.d({ type: 'text/done', id: 'a1' }));
    t.frame();
    assert.equal(t.root.querySelector('.md-open'), null);
    assert.equal(q(t.root, '[data-testid="assistant-text"]').getAttribute('data-done'), 'true');
    assert.equal(q(t.root, '.md-block p').textContent, 'Only block');
  });

  it('streams a list item with two paragraphs as one list, as the whole reply renders', () => {
    const t = streamInto('- one\n\n  still one\n- two\n\nafter\n', 2);
    const md = q(t.root, '[data-testid="assistant-text"]');
    assert.equal(md.querySelectorAll('ul').length, 1);
    assert.deepEqual(
      Array.from(md.querySelectorAll('ul > li'), (li) => li.querySelectorAll('p').length),
      [2, 1],
    );
  });

  it('links an earlier reference when its definition arrives, in the same node', () => {
    const t = streamInto('See [the docs].\n\nMore text.\n\n', 4);
    const first = q(t.root, '.md-block:not(.md-open)');
    assert.equal(first.querySelector('a'), null);
    t.receive(t.d({ type: 'text/append', id: 'a1', text: '[The  Docs]: https://e.invalid/docs\n\nEnd.\n' }));
    t.frame();
    assert.equal(q(t.root, '.md-block:not(.md-open)'), first, 'the block keeps its node');
    assert.equal(q(first, 'a').getAttribute('href'), 'https://e.invalid/docs');
  });

  it('keeps the markdown inside an open <details> inside it, as the whole reply renders', () => {
    const t = streamInto('<details><summary>Log</summary>\n\n**bold** inside\n\n</details>\n\nAfter.\n', 3);
    t.receive(t.d({ type: 'text/done', id: 'a1' }));
    t.frame();
    const details = q(t.root, '[data-testid="assistant-text"] details');
    assert.equal(q(details, 'strong').textContent, 'bold');
    assert.equal(q(t.root, '[data-testid="assistant-text"] > .markdown > .md-block:last-child p').textContent, 'After.');
  });
});
