// A web page as markdown the model can read: node-html-markdown (a maintained HTML→markdown
// translator with its own parser, no DOM needed), with what is never the page's content left
// out — scripts, styles, navigation, headers and footers, forms, embedded frames.
import { NodeHtmlMarkdown } from 'node-html-markdown';

const LEFT_OUT = [
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'iframe',
  'svg',
  'canvas',
  'button',
  'select',
];

const translator = new NodeHtmlMarkdown({ ignore: LEFT_OUT, maxConsecutiveNewlines: 2, keepDataImages: false });

export function htmlToMarkdown(html: string): { title: string | undefined; markdown: string } {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.replace(/\s+/g, ' ').trim();
  const main = /<main\b[\s\S]*<\/main>/i.exec(html)?.[0] ?? /<article\b[\s\S]*<\/article>/i.exec(html)?.[0];
  const markdown = translator.translate(main ?? html).trim();
  return { title: title ? decodeEntities(title) : undefined, markdown };
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? _);
}
