// The streaming property: for any markdown document and any chunking, with frames falling
// anywhere, the streamed reply's DOM equals the document rendered whole, and a block once
// finished keeps its node. Documents come from a seeded generator (markdown-gen.ts); a failure
// prints the seed, the document and the chunks so it can be replayed.
import './dom-env.js';
import assert from 'node:assert/strict';
import { MarkdownStream } from '../../../media/markdown/markdown-stream.js';
import { renderMarkdown } from '../../../media/markdown/render-markdown.js';
import { chunking, Gen, markdownDocument, rng } from './markdown-gen.js';

const CASES = Number(process.env.KEEL_MD_CASES ?? 500);
const FIRST_SEED = Number(process.env.KEEL_MD_SEED ?? 1);

function whole(text: string): string {
  const el = document.createElement('div');
  el.append(renderMarkdown(text));
  return el.innerHTML;
}

function streamed(g: Gen, chunks: string[]): { html: string; lost: number } {
  const stream = new MarkdownStream();
  const seen = new Set<Element>();
  const note = (): void => {
    for (const el of Array.from(stream.el.children)) if (!el.classList.contains('md-open')) seen.add(el);
  };
  // Frames fall anywhere. Most settle the finished blocks only: painting the open block does not
  // change the final DOM and costs a sanitizer pass in jsdom, so one frame per case paints it.
  const paint = g.int(0, chunks.length - 1);
  chunks.forEach((chunk, i) => {
    stream.append(chunk);
    if (i === paint) stream.render();
    else if (g.chance(0.7)) stream.settle();
    else return;
    note();
  });
  stream.end();
  const lost = [...seen].filter((el) => el.parentNode !== stream.el).length;
  const blocks = Array.from(stream.el.children, (el) => el.innerHTML);
  return { html: blocks.join(''), lost };
}

describe('webview: streamed markdown renders as the whole reply (property)', function () {
  this.timeout(120_000);

  it(`holds for ${CASES} generated documents and chunkings`, () => {
    for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
      const g = new Gen(rng(seed));
      const doc = markdownDocument(g);
      const chunks = chunking(g, doc);
      const got = streamed(g, chunks);
      const context = `seed ${seed}\n--- document ---\n${doc}\n--- chunks ---\n${JSON.stringify(chunks)}`;
      assert.equal(got.html, whole(doc), context);
      assert.equal(got.lost, 0, `a finished block's node was replaced\n${context}`);
    }
  });
});
