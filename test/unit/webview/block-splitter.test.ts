import assert from 'node:assert/strict';
import { BlockSplitter, type FinishedBlock } from '../../../media/markdown/block-splitter.js';
import { markdownOptions } from '../../../media/markdown/render-markdown.js';
import { markdownStats } from '../../../media/markdown/stats.js';

const splitter = (): BlockSplitter => new BlockSplitter({ marked: markdownOptions });
const texts = (blocks: FinishedBlock[]): string[] => blocks.map((b) => b.text);

/** Streams `text` in chunks of `size`, splitting after each (a frame per chunk): the finished blocks, then the rest. */
function stream(text: string, size: number): { blocks: string[]; rest: string[] } {
  const s = splitter();
  const blocks: string[] = [];
  for (let i = 0; i < text.length; i += size) {
    s.push(text.slice(i, i + size));
    blocks.push(...texts(s.split()));
  }
  return { blocks, rest: texts(s.end()) };
}

describe('webview: block splitter (marked finds the blocks)', () => {
  it('keeps a list item with two paragraphs in one list, whatever the chunking', () => {
    const doc = '- one\n\n  still one\n- two\n\nafter\n';
    for (const size of [1, 2, 5, 100]) {
      const { blocks, rest } = stream(doc, size);
      assert.deepEqual([...blocks, ...rest], ['- one\n\n  still one\n- two\n\n', 'after\n'], `chunks of ${size}`);
    }
  });

  it('finishes a paragraph at the blank line after it, but a list only when a block follows', () => {
    const s = splitter();
    s.push('First paragraph.\n\n');
    assert.deepEqual(texts(s.split()), ['First paragraph.\n\n']);
    s.push('- a\n\n');
    assert.deepEqual(texts(s.split()), [], 'an indented line could still continue the item');
    s.push('  more of a\n\nText');
    assert.deepEqual(texts(s.split()), [], 'the next block has no complete line yet');
    s.push('\n');
    assert.deepEqual(texts(s.split()), ['- a\n\n  more of a\n\n']);
    assert.equal(s.openText, 'Text\n');
  });

  it('keeps indented code open across blank lines and a paragraph open for its setext underline', () => {
    assert.deepEqual(stream('    a\n\n    b\n\nTitle\nline\n===\nnext\n', 1).blocks, ['    a\n\n    b\n\n', 'Title\nline\n===\n']);
  });

  it('finishes a closed fence at its closing line, and lexes nothing while an open fence streams', () => {
    const s = splitter();
    s.push('Intro.\n\n```ts\n');
    assert.deepEqual(texts(s.split()), ['Intro.\n\n']);
    assert.equal(s.inFence, true);
    const before = markdownStats.lexedChars;
    for (let i = 0; i < 500; i++) {
      s.push(`const line${i} = ${i};\n`);
      assert.deepEqual(s.split(), []);
    }
    assert.equal(markdownStats.lexedChars, before, 'no line of the body could close the fence');
    s.push('```\n');
    assert.equal(s.split().length, 1);
    assert.equal(s.inFence, false);
    assert.equal(s.openText, '');
  });

  it('holds a definition whose title may still run on, until the title closes', () => {
    const s = splitter();
    s.push('[a]: https://e.invalid\n"A title\n\nstill the title');
    assert.deepEqual(texts(s.split()), []);
    s.push('"\n\nSee [a].\n\n');
    const blocks = s.split();
    assert.deepEqual(texts(blocks), ['[a]: https://e.invalid\n"A title\n\nstill the title"\n\n', 'See [a].\n\n']);
    assert.deepEqual(s.links.a, { href: 'https://e.invalid', title: 'A title\n\nstill the title' });
  });

  it('reads a line ending split across chunks (\\r | \\n) as one line ending', () => {
    const { blocks, rest } = stream('one\r\n\r\ntwo\r\n', 1);
    assert.deepEqual([...blocks, ...rest], ['one\n\n', 'two\n']);
  });

  it('reports definitions once, for the caller to re-render blocks that use them', () => {
    const s = splitter();
    s.push('See [docs].\n\n[docs]: https://e.invalid/docs\n\n[Docs]: https://e.invalid/other\n\nx\n');
    s.split();
    assert.deepEqual(s.takeNewDefinitions(), ['docs']);
    assert.deepEqual(s.takeNewDefinitions(), []);
    assert.equal(s.links.docs?.href, 'https://e.invalid/docs', 'the first definition of a label wins');
  });

  it('lexes per frame only the open block, never the whole reply', () => {
    const section = (i: number): string =>
      `### Step ${i}\n\nThe loop reads one element past the end of the list, so the sum is wrong.\n\n- first point\n- second point\n\n\`\`\`ts\nlet total = ${i};\n\`\`\`\n\n`;
    let reply = '';
    for (let i = 0; reply.length < 73_000; i++) reply += section(i); // the 73 KB reply of the design notes
    const s = splitter();
    let most = 0;
    const start = markdownStats.lexedChars;
    for (let i = 0; i < reply.length; i += 3) {
      s.push(reply.slice(i, i + 3));
      const before = markdownStats.lexedChars;
      s.split();
      most = Math.max(most, markdownStats.lexedChars - before);
    }
    s.end();
    assert.ok(most <= section(999).length, `at most ${most} characters lexed in a frame`);
    const total = markdownStats.lexedChars - start;
    assert.ok(total < 4 * reply.length, `${total} characters lexed for a ${reply.length}-character reply`);
  });
});
