// Markdown → sanitized DOM. Finished blocks arrive as marked's tokens (see block-splitter) and
// are rendered once, highlighted; the open block is rendered from text each frame, with code
// left plain (highlighting a block that changes every frame costs much and shows nothing new).
// Images never become remote <img>; code blocks get a copy button. `markdownStats` counts
// parses so tests can prove that finished blocks are not parsed again.
import { Lexer, type Links, Marked, type MarkedOptions, type Token, type Tokens } from 'marked';
import { escapeHtml, highlightCode } from './highlight.js';
import { sanitizeHtml } from './sanitize.js';
import { markdownStats } from './stats.js';
import { holdsRawHtml } from './token-walk.js';

// Every image comes out as <img>; after sanitizing, one that is not embedded data becomes a Keel
// image link (sanitize.ts), so that class is Keel's to give, never the model's.
function image({ href, text }: Tokens.Image): string {
  return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}">`;
}

const finished = new Marked({
  gfm: true,
  async: false,
  renderer: {
    image,
    code({ text, lang }: Tokens.Code): string {
      const { html, language } = highlightCode(text.replace(/\n$/, ''), lang);
      const cls = language ? ` class="hljs language-${escapeHtml(language)}"` : ' class="hljs"';
      return `<pre><code${cls}>${html}</code></pre>\n`;
    },
  },
});

const open = new Marked({
  gfm: true,
  async: false,
  renderer: {
    image,
    code: ({ text }: Tokens.Code): string => `<pre><code class="hljs streaming">${escapeHtml(text.replace(/\n$/, ''))}</code></pre>\n`,
  },
});

/** The lexer options the splitter must use so its tokens are the ones a whole render would make. */
export const markdownOptions: MarkedOptions = finished.defaults;

/** Renders a whole markdown text (a reference for tests; the warm-up). */
export function renderMarkdown(text: string): DocumentFragment {
  markdownStats.parses += 1;
  markdownStats.lexedChars += text.length;
  return toFragment(finished.parse(text, { async: false }) as string);
}

/** Renders a finished block's tokens (already lexed, inline tokens included). */
export function renderTokens(tokens: Token[]): DocumentFragment {
  markdownStats.parses += 1;
  return toFragment(finished.parser(tokens));
}

/** Renders the open block: its text, with the definitions of the finished blocks. */
export function renderOpenMarkdown(text: string, links: Links): DocumentFragment {
  markdownStats.parses += 1;
  markdownStats.lexedChars += text.length;
  const lexer = new Lexer(markdownOptions);
  lexer.tokens.links = Object.assign(Object.create(null), links);
  return toFragment(open.parser(lexer.lex(text)), false);
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

const PROBE = '<span data-keel-probe=""></span>';

/**
 * True when the HTML of these tokens leaves an element open (`<details>` waiting for its
 * `</details>`, an unclosed `<b>`…): rendered whole, the blocks after would nest inside it, so
 * they must not be rendered apart. The browser's own parser answers: a probe element appended
 * to the HTML lands at the top level, untouched, only when nothing is left open.
 */
export function leavesHtmlOpen(tokens: Token[]): boolean {
  if (!holdsRawHtml(tokens)) return false;
  const doc = new window.DOMParser().parseFromString(finished.parser(tokens) + PROBE, 'text/html');
  const last = doc.body.lastChild;
  return !(last?.nodeType === 1 && (last as Element).hasAttribute('data-keel-probe') && doc.body.lastElementChild === last);
}

function toFragment(html: string, copyButtons = true): DocumentFragment {
  return sanitizeHtml(html, copyButtons ? addCopyButton : undefined);
}

/** A toolbar above a finished code block (in the flow, so it never covers code): Copy, Insert. */
function addCopyButton(pre: HTMLPreElement): void {
  const doc = pre.ownerDocument;
  const button = (action: string, label: string, glyphName: string, text: string): HTMLButtonElement => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = `${action} code-action`;
    b.setAttribute('data-action', action);
    b.setAttribute('data-testid', action);
    b.setAttribute('aria-label', label);
    b.setAttribute('title', label);
    const glyph = doc.createElement('span');
    glyph.className = `codicon codicon-${glyphName}`;
    glyph.setAttribute('aria-hidden', 'true');
    const words = doc.createElement('span');
    words.className = 'code-action-text';
    words.textContent = text;
    b.append(glyph, words);
    return b;
  };
  const bar = doc.createElement('div');
  bar.className = 'code-actions';
  bar.append(
    button('copy-code', 'Copy code', 'copy', 'Copy'),
    button('insert-code', 'Insert at cursor', 'insert', 'Insert'),
    button('apply-code', 'Apply to file…', 'go-to-file', 'Apply'),
  );
  pre.classList.add('has-copy');
  pre.prepend(bar);
}

/**
 * Renders a small sample once, off screen, while the view waits for the host's snapshot: the
 * first real render then runs warm code (parser, sanitizer, highlighter) instead of cold.
 */
export function warmUpMarkdown(): void {
  const before = { ...markdownStats };
  renderMarkdown(
    '# W\n\n*a* **b** `c` [d](https://e.invalid) ![f](https://e.invalid/g.png)\n\n- h\n\n1. i\n\n> j\n\n```ts\nconst k: number = 1;\n```\n',
  );
  Object.assign(markdownStats, before);
}
