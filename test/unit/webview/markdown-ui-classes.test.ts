// Markdown from the model may not dress up as Keel's own UI: only highlighting and language
// classes survive sanitizing; ids, styles, data-* and Keel's classes are stripped.
import './dom-env.js';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../media/markdown/render-markdown.js';
import { sanitizeHtml } from '../../../media/markdown/sanitize.js';

const classesIn = (root: ParentNode) =>
  Array.from(root.querySelectorAll('[class]'))
    .flatMap((el) => (el.getAttribute('class') ?? '').split(/\s+/))
    .filter(Boolean);

describe('webview: model markdown cannot wear Keel’s UI', () => {
  it('strips every class but highlight.js and language classes', () => {
    const fragment = sanitizeHtml(
      [
        '<div class="item intent-card risk-execute" data-testid="intent-card" data-intent-status="awaiting_approval" id="approve" style="x">',
        '<button class="button" data-action="approve">Approve</button>',
        '<span class="notice error">Keel: your key expired</span>',
        '<a class="image-link button" href="https://x.example">x</a>',
        '<code class="hljs language-ts intent-summary">const a = 1</code>',
        '<span class="hljs-keyword codicon codicon-check">if</span>',
        '</div>',
      ].join(''),
    );
    assert.deepEqual(classesIn(fragment).sort(), ['hljs', 'hljs-keyword', 'language-ts']);
    assert.equal(fragment.querySelectorAll('[data-testid], [data-action], [id], [style], button').length, 0);
  });

  it('keeps Keel’s own classes where Keel adds them: highlighted fences, copy buttons, image links', () => {
    const fragment = renderMarkdown('```js\nconst a = 1;\n```\n\n![chart](https://x.example/c.png)\n');
    const classes = new Set(classesIn(fragment));
    for (const c of ['hljs', 'language-js', 'copy-code', 'image-link']) assert.ok(classes.has(c), c);
    assert.equal(fragment.querySelector('a.image-link')?.getAttribute('href'), 'https://x.example/c.png');
  });

  it('leaves no command:, vscode: or javascript: link to click', () => {
    const fragment = renderMarkdown(
      '[a](command:workbench.action.terminal.new) [b](vscode:extension/evil.x) [c](javascript:alert(1)) <a href="JaVaScRiPt:alert(1)">d</a>',
    );
    for (const a of Array.from(fragment.querySelectorAll('a'))) {
      const href = a.getAttribute('href');
      assert.ok(href === null || !/^\s*(command|vscode|javascript):/i.test(href), String(href));
    }
  });
});
