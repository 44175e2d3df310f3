// A seeded generator of markdown documents for the streaming property test: the constructs whose
// extent depends on what follows (lists with several paragraphs, lazy lines, setext underlines,
// indented code across blank lines, definitions after their use, HTML blocks that stay open
// over markdown, fences left open at the end) mixed at random, joined by zero, one or two blank
// lines so blocks also interrupt each other.

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Gen {
  constructor(readonly random: () => number) {}

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'sum', 'the', 'loop', 'ends', 'early', 'x', 'of', 'a', 'list', 'total', 'zero'];
const LABELS = ['docs', 'spec', 'Ref One', 'x'];

function words(g: Gen, n: number): string {
  return Array.from({ length: n }, () => g.pick(WORDS)).join(' ');
}

function inline(g: Gen): string {
  const parts: string[] = [];
  for (let i = g.int(1, 5); i > 0; i--) {
    parts.push(
      g.pick([
        () => words(g, g.int(1, 4)),
        () => `**${words(g, 2)}**`,
        () => `*${words(g, 1)}*`,
        () => `\`${g.pick(WORDS)}()\``,
        () => `[${words(g, 1)}](https://e.invalid/${g.pick(WORDS)})`,
        () => `[${g.pick(LABELS)}]`,
        () => `[${words(g, 1)}][${g.pick(LABELS)}]`,
        () => `[${g.pick(LABELS)}][]`,
        () => `<b>${words(g, 1)}</b>`,
        () => `<kbd>Ctrl</kbd>`,
        () => `a[${g.int(0, 3)}]`,
        () => `~~${words(g, 1)}~~`,
      ])(),
    );
  }
  return parts.join(' ');
}

function paragraph(g: Gen): string {
  return Array.from({ length: g.int(1, 3) }, () => inline(g)).join('\n');
}

function list(g: Gen, depth: number): string {
  const ordered = g.chance(0.4);
  const marker = ordered ? g.pick(['.', ')']) : g.pick(['-', '*', '+']);
  const loose = g.chance(0.4);
  const items: string[] = [];
  const count = g.int(1, 4);
  for (let i = 0; i < count; i++) {
    const bullet = ordered ? `${i + 1}${marker} ` : `${marker} `;
    const pad = ' '.repeat(bullet.length);
    const task = !ordered && g.chance(0.15) ? g.pick(['[ ] ', '[x] ']) : '';
    let item = bullet + task + inline(g);
    if (g.chance(0.2)) item += `\n${g.chance(0.5) ? pad : ''}${inline(g)}`; // continuation (lazy or indented)
    if (g.chance(0.3)) item += `\n\n${pad}${inline(g)}`; // a second paragraph
    if (depth < 2 && g.chance(0.25)) item += `\n${indent(list(g, depth + 1), pad)}`;
    if (g.chance(0.1)) item += `\n${indent('```\ncode in item\n```', pad)}`;
    items.push(item);
  }
  return items.join(loose ? '\n\n' : '\n');
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}

function fence(g: Gen): string {
  const mark = g.pick(['```', '~~~', '````']);
  const body = Array.from({ length: g.int(0, 4) }, () =>
    g.pick(['let a = 1;', '', '  return a;', '# not a heading', '- not a list', '```']),
  ).join('\n');
  return `${mark}${g.pick(['', 'ts', 'python', 'bash'])}\n${body}${body ? '\n' : ''}${mark}`;
}

function table(g: Gen): string {
  const cols = g.int(1, 3);
  const row = (): string => `| ${Array.from({ length: cols }, () => inline(g)).join(' | ')} |`;
  const rows = Array.from({ length: g.int(0, 3) }, row);
  return [row(), `|${' --- |'.repeat(cols)}`, ...rows].join('\n');
}

function quote(g: Gen): string {
  const body = g.pick([() => paragraph(g), () => list(g, 1), () => `## ${words(g, 2)}\n${inline(g)}`])();
  let text = indent(body, '> ');
  if (g.chance(0.25)) text += `\n${inline(g)}`; // lazy continuation
  return text;
}

function html(g: Gen): string {
  return g.pick([
    () => `<div>\n${inline(g)}\n</div>`,
    () => `<details><summary>${words(g, 2)}</summary>\n\n${paragraph(g)}\n\n</details>`,
    () => `<div>\n\n${paragraph(g)}\n\n</div>`,
    () => `<!-- ${words(g, 3)} -->`,
    () => `<pre>\n${words(g, 3)}\n\n${words(g, 2)}\n</pre>`,
    () => `<p align="center">${words(g, 2)}</p>`,
  ])();
}

function definition(g: Gen): string {
  const title = g.pick(['', ' "Title"', " 'Title'", ' (Title)', '\n  "Next line"']);
  return `[${g.pick(LABELS)}]: https://e.invalid/${g.pick(WORDS)}${title}`;
}

function block(g: Gen): string {
  return g.pick([
    () => paragraph(g),
    () => paragraph(g),
    () => list(g, 0),
    () => list(g, 0),
    () => fence(g),
    () => `    ${words(g, 3)}\n${g.chance(0.5) ? '\n' : ''}    ${words(g, 2)}`,
    () => quote(g),
    () => `${'#'.repeat(g.int(1, 6))} ${inline(g)}`,
    () => `${paragraph(g)}\n${g.pick(['===', '---', '-'])}`,
    () => table(g),
    () => definition(g),
    () => html(g),
    () => g.pick(['---', '***', '___', '- - -']),
  ])();
}

/** A document of a few blocks; the last one may be a fence left open. */
export function markdownDocument(g: Gen): string {
  let text = '';
  for (let i = g.int(1, 6); i > 0; i--) {
    text += block(g) + g.pick(['\n', '\n\n', '\n\n', '\n\n\n']);
  }
  if (g.chance(0.1)) text += `\`\`\`ts\nconst open = ${g.int(0, 9)};\n`;
  if (g.chance(0.3)) text = text.trimEnd();
  return text;
}

/** Cuts `text` into chunks: one character at a time, small model tokens, or big bursts. */
export function chunking(g: Gen, text: string): string[] {
  const max = g.pick([1, 4, 12, 80]);
  const chunks: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = g.int(1, max);
    chunks.push(text.slice(i, i + n));
    i += n;
  }
  return chunks;
}
