// Issue 21 #13: markdown as a narrow side bar needs it. A wide table scrolls in its own box (a
// region the keyboard reaches) instead of being clipped; a code block's toolbar sits outside the
// code's own scroll with the fence's file and language; task lists carry no bullet beside the
// checkbox (CSS, checked in the browser); a file path in inline code opens the file.
import './dom-env.js';
import assert from 'node:assert/strict';
import { click, makeApp, q } from './dom-env.js';
import { snapshot } from './fixtures.js';

function answer(text: string) {
  const t = makeApp();
  t.receive(snapshot([{ kind: 'assistant', id: 'a1', text, done: true }]));
  t.frame();
  t.posted.length = 0;
  return t;
}

describe('webview: markdown in a narrow side bar (issue 21 #13)', () => {
  it('puts a table in a box of its own that scrolls sideways and takes the keyboard', () => {
    const t = answer('| file | what | lines |\n| --- | --- | --- |\n| src/price.js | prices and discounts | 42 |\n');
    const table = q(t.root, 'table');
    const box = table.parentElement!;
    assert.equal(box.className, 'table-scroll');
    assert.equal(box.getAttribute('tabindex'), '0');
    assert.equal(box.getAttribute('role'), 'region');
  });

  it('labels a code block with the fence’s file and language', () => {
    const t = answer('```js src/long.js\nconst a = 1;\n```\n\n```src/other.ts\nlet b = 2;\n```\n');
    const labels = [...t.root.querySelectorAll('.code-label')].map((l) => l.textContent);
    assert.deepEqual(labels, ['src/long.js · js', 'src/other.ts · ts']);
    assert.ok(t.root.querySelector('.code-block pre code.language-ts'), 'highlighted by the extension');
  });

  it('makes a file path in inline code open the file (with its line), and leaves other code alone', () => {
    const t = answer('See `src/price.js:12`, `package.json` and `console.log` and `x = 1`.');
    const links = [...t.root.querySelectorAll<HTMLElement>('.file-link')];
    assert.deepEqual(
      links.map((l) => l.textContent),
      ['src/price.js:12', 'package.json'],
    );
    click(links[0]!);
    assert.deepEqual(t.posted.at(-1), { type: 'file/open', path: 'src/price.js', line: 12 });
    click(links[1]!);
    assert.deepEqual(t.posted.at(-1), { type: 'file/open', path: 'package.json' });
  });

  it('gives model markdown no way to make its own file links (data-* is stripped)', () => {
    const t = answer('<button data-action="open-file" data-path="/etc/passwd">x</button> and <code data-action="open-file">y</code>');
    assert.equal(t.root.querySelectorAll('[data-action="open-file"], [data-path]').length, 0);
  });
});

describe('webview: code block actions', () => {
  function codeBlock() {
    const t = makeApp();
    const text = 'Try:\n\n```ts\nconst answer = 42;\n```\n';
    t.receive(snapshot([{ kind: 'assistant', id: 'a1', text, done: true }]));
    t.frame();
    return { t, pre: q(t.root, '[data-testid="assistant-text"] .code-block') };
  }

  it('has Copy and Insert at cursor as buttons above the code, outside its scroll, reachable by Tab', () => {
    const { pre } = codeBlock();
    const bar = q(pre, '.code-actions');
    assert.equal(bar.nextElementSibling?.tagName, 'PRE', 'the toolbar comes before the code, not over it, nor in its scroll');
    assert.equal(q(bar, '.code-label').textContent, 'ts', 'labelled with its language');
    const buttons = Array.from(bar.querySelectorAll('button'));
    assert.deepEqual(
      buttons.map((b) => b.getAttribute('aria-label')),
      ['Copy code', 'Insert at cursor', 'Apply to file…'],
    );
    for (const b of buttons) assert.notEqual(b.getAttribute('tabindex'), '-1');
  });

  it('Copy copies through the host and says Copied', () => {
    const { t, pre } = codeBlock();
    click(q(pre, '[data-testid="copy-code"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'clipboard/copy', text: 'const answer = 42;' });
    assert.equal(q(pre, '[data-testid="copy-code"]').textContent, 'Copied');
    assert.equal(q(pre, '[data-testid="copy-code"]').getAttribute('aria-label'), 'Copied');
    // A narrow block shows the glyph alone: the glyph itself is the visible tick.
    assert.ok(q(pre, '[data-testid="copy-code"] .codicon-check'), 'a tick where the copy glyph was');
    assert.equal(q(pre, '[data-testid="copy-code"]').querySelector('.codicon-copy'), null);
  });

  it('Insert at cursor sends the code to the editor', () => {
    const { t, pre } = codeBlock();
    click(q(pre, '[data-testid="insert-code"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'editor/insert', text: 'const answer = 42;' });
  });

  it('Apply to file… sends the code to the host, which asks for the file and shows the diff', () => {
    const { t, pre } = codeBlock();
    const apply = q(pre, '[data-testid="apply-code"]');
    assert.equal(apply.getAttribute('aria-label'), 'Apply to file…');
    click(apply);
    assert.deepEqual(t.posted.at(-1), { type: 'editor/apply', text: 'const answer = 42;' });
  });
});
