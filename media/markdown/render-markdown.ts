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
      const info = fenceInfo(lang);
      const { html, language } = highlightCode(text.replace(/\n$/, ''), info.language);
      const cls = language ? ` class="hljs language-${escapeHtml(language)}"` : ' class="hljs"';
      // The fence's language and file go with the block, as text: the toolbar shows them.
      const label = [info.file, info.language].filter(Boolean).join(' · ');
      return `<pre${label ? ` title="${escapeHtml(label)}"` : ''}><code${cls}>${html}</code></pre>\n`;
    },
  },
});

/**
 * A fence's info string: "ts", "ts src/a.ts", "js title=\"a.js\"", or just "src/a.ts" (the
 * language then from the extension).
 */
function fenceInfo(info: string | undefined): { language?: string; file?: string } {
  const words = (info ?? '').trim().split(/\s+/).filter(Boolean);
  const title = /title=["']?([^"'\s]+)/.exec(info ?? '')?.[1];
  const isPath = (w: string | undefined) => !!w && (w.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(w));
  if (isPath(words[0])) return { language: words[0]!.split('.').pop(), file: words[0] };
  const file = title ?? (isPath(words[1]) ? words[1] : undefined);
  return { ...(words[0] ? { language: words[0] } : {}), ...(file ? { file } : {}) };
}

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

function toFragment(html: string, decorate = true): DocumentFragment {
  return sanitizeHtml(html, decorate ? { code: addCopyButton, table: scrollableTable, inlineCode: linkFilePath } : undefined);
}

/**
 * A toolbar above a finished code block, outside the code's own scroll (a long block scrolls
 * under it, capped in height): the fence's file and language, then Copy, Insert, Apply.
 */
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
  const label = doc.createElement('span');
  label.className = 'code-label';
  label.textContent = pre.getAttribute('title') ?? '';
  label.title = label.textContent;
  bar.append(
    label,
    button('copy-code', 'Copy code', 'copy', 'Copy'),
    button('insert-code', 'Insert at cursor', 'insert', 'Insert'),
    button('apply-code', 'Apply to file…', 'go-to-file', 'Apply'),
  );
  const block = doc.createElement('div');
  block.className = 'code-block';
  pre.replaceWith(block);
  block.append(bar, pre);
}

/** A table too wide for the side bar scrolls inside its own box, with shadows at the edges it can scroll to. */
function scrollableTable(table: HTMLTableElement): void {
  const box = table.ownerDocument.createElement('div');
  box.className = 'table-scroll';
  box.setAttribute('tabindex', '0');
  box.setAttribute('role', 'region');
  box.setAttribute('aria-label', 'Table (scrolls sideways when wider than the view)');
  table.replaceWith(box);
  box.append(table);
}

/** Extensions that make a bare name (`package.json`) a file; with a slash any name is a path. */
const FILE_EXTENSIONS = new Set(
  'js mjs cjs jsx ts tsx json md py go rs java kt c h cc cpp hpp cs rb php swift yml yaml toml ini css scss html vue svelte sh txt lock sql xml gradle'.split(
    ' ',
  ),
);
const PATH = /^(?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*(?::(\d+))?$/;

/** Inline code that names a file (`src/price.js`, `src/price.js:12`) opens it on click. */
function linkFilePath(code: HTMLElement): void {
  const text = code.textContent ?? '';
  const m = PATH.exec(text);
  if (!m || text.length > 200) return;
  const path = m[1] === undefined ? text : text.slice(0, text.lastIndexOf(':'));
  const ext = path.includes('.') ? path.split('.').pop()!.toLowerCase() : '';
  if (!path.includes('/') && !FILE_EXTENSIONS.has(ext)) return;
  if (path.includes('/') && !ext && !path.endsWith('/')) return;
  const link = code.ownerDocument.createElement('button');
  link.type = 'button';
  link.className = 'file-link';
  link.setAttribute('data-action', 'open-file');
  link.setAttribute('data-path', path);
  if (m[1]) link.setAttribute('data-line', m[1]);
  link.setAttribute('title', `Open ${text}`);
  code.replaceWith(link);
  link.append(code);
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
