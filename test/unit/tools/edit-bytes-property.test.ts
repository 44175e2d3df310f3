// A property of every edit: the bytes outside the replaced lines are the original bytes. Random
// files (UTF-8 with and without BOM, UTF-16 LE/BE, Latin-1; LF, CRLF, mixed endings, with and
// without a final newline, a stray odd byte ending UTF-16; ASCII, accents, CJK, emoji, tabs) are built line by line, so the test
// knows each line's bytes without Keel's decoder; random blocks replace whole lines, matched
// exactly or after forgiving trailing whitespace. The expected file is built from the same
// pieces: the original bytes with the chosen lines' bytes swapped for the replacement's.
import assert from 'node:assert/strict';
import { planEdit } from '../../../src/tools/edit/plan-edit.js';

type Encoding = 'utf8' | 'utf8bom' | 'utf16le' | 'utf16be' | 'latin1';

const ROUNDS = 400;
const SEED = 23;
const ENCODINGS: readonly Encoding[] = ['utf8', 'utf8bom', 'utf16le', 'utf16be', 'latin1'];
const WIDE = ['é', 'ü', 'ß', '—', '“', '’', '漢', '字', '😀', '🚀', 'Ω'];
/** Latin-1 letters from 0xC0 up: none is a UTF-8 continuation byte, so no run of them reads as UTF-8. */
const LATIN1 = ['À', 'é', 'ü', 'ß', 'ø', 'ñ', 'ÿ'];

/** mulberry32: a small seeded generator, so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const utf8 = new TextEncoder();

function encode(text: string, encoding: Encoding): Uint8Array {
  if (encoding === 'utf8' || encoding === 'utf8bom') return utf8.encode(text);
  if (encoding === 'latin1') return Uint8Array.from(text, (c) => c.charCodeAt(0));
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const [hi, lo] = [c >> 8, c & 0xff];
    out.set(encoding === 'utf16le' ? [lo, hi] : [hi, lo], i * 2);
  }
  return out;
}

const BOMS: Record<Encoding, number[]> = {
  utf8: [],
  utf8bom: [0xef, 0xbb, 0xbf],
  utf16le: [0xff, 0xfe],
  utf16be: [0xfe, 0xff],
  latin1: [],
};

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

interface Case {
  encoding: Encoding;
  lines: string[];
  /** Each line's ending ('' for a last line without one). */
  eols: string[];
  /** A UTF-16 file may end in an odd byte that no decoder reads: it must stay. */
  oddByte: boolean;
  edits: { first: number; count: number; search: string; replace: string[] }[];
}

function makeCase(rnd: () => number): Case {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const encoding = pick(ENCODINGS);
  const wide = encoding === 'latin1' ? LATIN1 : WIDE;
  const word = () => (rnd() < 0.3 ? pick(wide) : '') + Math.floor(rnd() * 1e6).toString(36);
  const indent = rnd() < 0.5 ? '\t' : '  ';
  // A unique token per line keeps every search unique in the file.
  const line = (id: string) =>
    `${indent.repeat(Math.floor(rnd() * 3))}${id} ${Array.from({ length: 1 + Math.floor(rnd() * 6) }, word).join(' ')}`;
  const count = 5 + Math.floor(rnd() * 40);
  const lines = Array.from({ length: count }, (_, i) => line(`L${i}`));
  if (encoding === 'latin1') lines[0] += ' é'; // never valid UTF-8, so it is read as Latin-1
  const ending = pick(['\n', '\r\n', 'mixed']);
  const eols = lines.map((_, i) => (ending === 'mixed' ? (i % 3 === 1 ? '\r\n' : '\n') : ending));
  if (rnd() < 0.3) eols[eols.length - 1] = '';
  const edits: Case['edits'] = [];
  // Blocks of several lines only where every ending is the same (an exact search spans them).
  const span = ending === 'mixed' ? 1 : 3;
  for (let at = Math.floor(rnd() * 3); at < count && edits.length < 3; at += 2 + Math.floor(rnd() * 8)) {
    const n = Math.min(1 + Math.floor(rnd() * span), count - at);
    const chosen = lines.slice(at, at + n);
    const tolerant = rnd() < 0.4;
    const search = chosen.map((l) => (tolerant ? `${l}  ` : l)).join('\n');
    const replace = Array.from({ length: Math.floor(rnd() * 3) + 1 }, (_, k) => line(`R${edits.length}_${k}`));
    edits.push({ first: at, count: n, search, replace });
    at += n;
  }
  const oddByte = (encoding === 'utf16le' || encoding === 'utf16be') && rnd() < 0.25;
  return { encoding, lines, eols, oddByte, edits };
}

function fileBytes(c: Case, replaced = false): Uint8Array {
  const dominant = c.eols[0] || '\n';
  const parts: Uint8Array[] = [Uint8Array.from(BOMS[c.encoding])];
  for (let i = 0; i < c.lines.length; i++) {
    const edit = replaced ? c.edits.find((e) => e.first === i) : undefined;
    if (edit) {
      // The replaced lines' content goes; the last one's ending stays.
      parts.push(encode(edit.replace.join(dominant), c.encoding), encode(c.eols[i + edit.count - 1]!, c.encoding));
      i += edit.count - 1;
      continue;
    }
    parts.push(encode(c.lines[i]!, c.encoding), encode(c.eols[i]!, c.encoding));
  }
  if (c.oddByte) parts.push(Uint8Array.of(0x0a));
  return concat(parts);
}

describe('edit_file keeps every byte outside the edit (property)', () => {
  it(`${ROUNDS} random files and edits: the new file is the old bytes with only the chosen lines swapped`, () => {
    const rnd = random(SEED);
    let checked = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const c = makeCase(rnd);
      if (c.edits.length === 0) continue;
      const original = fileBytes(c);
      const plan = planEdit(
        original,
        c.edits.map((e) => ({ search: e.search, replace: e.replace.join('\n') })),
        'f.txt',
      );
      const what = `round ${round}: ${c.encoding}, ${JSON.stringify(c.eols.slice(0, 3))}…, ${c.edits.length} blocks`;
      if (!plan.ok) assert.fail(`${what}: ${plan.message}`);
      assert.deepEqual(Buffer.from(plan.newBytes), Buffer.from(fileBytes(c, true)), what);
      checked++;
    }
    assert.ok(checked > ROUNDS * 0.9, `only ${checked} rounds had edits`);
  });
});
