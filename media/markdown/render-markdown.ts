// Markdown → sanitized DOM for one block. Images never become remote <img>; code blocks are
// highlighted and get a copy button. `markdownStats` counts parses so tests can prove that
// finished blocks are not parsed again.
import { Marked, type Tokens } from 'marked';
import { escapeHtml, highlightCode } from './highlight.js';
import { sanitizeHtml } from './sanitize.js';

export const markdownStats = { parses: 0 };

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Every image comes out as <img>; after sanitizing, one that is not embedded data becomes
    // a Keel image link (sanitize.ts), so that class is Keel's to give, never the model's.
    image({ href, text }: Tokens.Image): string {
      return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}">`;
    },
    code({ text, lang }: Tokens.Code): string {
      const { html, language } = highlightCode(text.replace(/\n$/, ''), lang);
      const cls = language ? ` class="hljs language-${escapeHtml(language)}"` : ' class="hljs"';
      return `<pre><code${cls}>${html}</code></pre>\n`;
    },
  },
});

/** Renders one finished (or the open) markdown block. */
export function renderMarkdown(text: string): DocumentFragment {
  markdownStats.parses += 1;
  const html = marked.parse(text, { async: false }) as string;
  const fragment = sanitizeHtml(html);
  for (const pre of Array.from(fragment.querySelectorAll('pre'))) addCopyButton(pre);
  return fragment;
}

/** A code fence still streaming: plain text, no parse, no highlight (it is redone when closed). */
export function renderOpenFence(text: string): HTMLElement {
  const firstNewline = text.indexOf('\n');
  const body = firstNewline === -1 ? '' : text.slice(firstNewline + 1);
  const pre = document.createElement('pre');
  const code = document.createElement('code');
  code.className = 'hljs streaming';
  code.textContent = body;
  pre.append(code);
  return pre;
}

function addCopyButton(pre: HTMLPreElement): void {
  const button = pre.ownerDocument.createElement('button');
  button.type = 'button';
  button.className = 'copy-code icon-button';
  button.setAttribute('data-action', 'copy-code');
  button.setAttribute('data-testid', 'copy-code');
  button.setAttribute('aria-label', 'Copy code');
  button.setAttribute('title', 'Copy code');
  const glyph = pre.ownerDocument.createElement('span');
  glyph.className = 'codicon codicon-copy';
  glyph.setAttribute('aria-hidden', 'true');
  button.append(glyph);
  pre.classList.add('has-copy');
  pre.prepend(button);
}

/**
 * Renders a small sample once, off screen, while the view waits for the host's snapshot: the
 * first real render then runs warm code (parser, sanitizer, highlighter) instead of cold.
 */
export function warmUpMarkdown(): void {
  const before = markdownStats.parses;
  renderMarkdown(
    '# W\n\n*a* **b** `c` [d](https://e.invalid) ![f](https://e.invalid/g.png)\n\n- h\n\n1. i\n\n> j\n\n```ts\nconst k: number = 1;\n```\n',
  );
  markdownStats.parses = before;
}
