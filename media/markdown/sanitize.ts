// Everything markdown produces passes DOMPurify with an allow-list, then a pass over the inert
// result that turns any image not embedded as data into a link: the view never fetches.
// Model-written markdown may not wear Keel's own UI: of `class`, only highlight.js and
// language classes survive (no `button`, `intent-card`, `notice`…), and no id, style or data-*.
import DOMPurify from 'dompurify';

const ALLOWED_TAGS = [
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'details',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'input',
  'kbd',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'class', 'align', 'start', 'type', 'checked', 'disabled', 'colspan', 'rowspan'];

/** The only classes model markdown may carry: code highlighting (`hljs`, `hljs-keyword`) and fence languages. */
const ALLOWED_CLASS = /^(?:hljs(?:-[A-Za-z0-9_-]+)?|language-[A-Za-z0-9_+#.-]+)$/;

/** Images the view may show: embedded raster data only (no SVG: it can reference URLs). */
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

let purifier: ReturnType<typeof DOMPurify> | undefined;
/** Elements the sanitizer kept that need a second look, gathered while it walks the tree. */
let kept: Element[] = [];

/**
 * Created on first use so it binds to the page's window (jsdom in tests, the webview live).
 * The config is set once: passing it per call makes DOMPurify re-parse it for every block.
 * Images, inputs and code blocks are gathered by a hook during DOMPurify's own walk, so no
 * query runs on its inert document afterwards (a selector engine per document is costly in
 * jsdom, and the walk has visited every node already).
 */
function purify(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName !== 'class') return;
    const kept = data.attrValue.split(/\s+/).filter((c) => ALLOWED_CLASS.test(c));
    data.attrValue = kept.join(' ');
    data.keepAttr = kept.length > 0;
  });
  purifier.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
    // Parse in <body> from the first character, so a block that opens with a comment keeps the
    // whitespace after it as the same markdown rendered whole does.
    FORCE_BODY: true,
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const name = node.nodeName;
    if (name === 'IMG' || name === 'INPUT' || name === 'PRE' || name === 'TABLE' || name === 'CODE') kept.push(node as Element);
  });
  return purifier;
}

function isEmbeddedImage(src: string): boolean {
  return EMBEDDED_IMAGE.test(src);
}

/** What a finished block's view adds to sanitized markdown (the open block gets none of it). */
export interface Decorations {
  /** Each code block (`pre`). */
  code(pre: HTMLPreElement): void;
  table(table: HTMLTableElement): void;
  /** Each inline `code` (not in a `pre`). */
  inlineCode(code: HTMLElement): void;
}

/** A sanitized fragment, owned by an inert document until the caller inserts it, decorated if asked. */
export function sanitizeHtml(html: string, decorate?: Decorations): DocumentFragment {
  kept = [];
  const fragment = purify().sanitize(html) as unknown as DocumentFragment;
  const found = kept;
  kept = [];
  for (const el of found) {
    if (el.nodeName === 'IMG') neutralizeImage(el);
    else if (el.nodeName === 'INPUT') fixInput(el);
    else if (!decorate) continue;
    else if (el.nodeName === 'PRE') decorate.code(el as HTMLPreElement);
    else if (el.nodeName === 'TABLE') decorate.table(el as HTMLTableElement);
    else if (el.parentNode?.nodeName !== 'PRE') decorate.inlineCode(el as HTMLElement);
  }
  return fragment;
}

function neutralizeImage(img: Element): void {
  const src = img.getAttribute('src') ?? '';
  if (isEmbeddedImage(src)) return;
  img.replaceWith(imageLink(img.ownerDocument, src, img.getAttribute('alt') ?? ''));
}

/** Only task-list checkboxes survive, and they cannot be ticked. */
function fixInput(input: Element): void {
  if (input.getAttribute('type') !== 'checkbox') input.remove();
  else input.setAttribute('disabled', '');
}

/** `alt (url)` as a link the host opens on click: the URL stays visible, nothing is fetched. */
function imageLink(doc: Document, src: string, alt: string): HTMLElement {
  const link = doc.createElement('a');
  link.className = 'image-link';
  if (src) link.setAttribute('href', src);
  link.textContent = alt ? `${alt} (${src})` : src || 'image';
  return link;
}
