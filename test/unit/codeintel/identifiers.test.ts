// The hand-written identifier scan finds exactly the words the Unicode regular expression of the
// plain build finds: on chosen cases (private names, `$`, digits before letters, astral letters,
// combining marks, skipped ranges ending inside a word) and on thousands of random texts over an
// alphabet of the characters that matter, with random ranges skipped.
import assert from 'node:assert/strict';
import { collectIdentifiers, unpackPosition } from '../../../src/codeintel/identifiers.js';
import { lineStarts } from '../../../src/codeintel/definitions.js';
import { referenceWords } from '../../support/reference-extract.js';

const KEYWORDS = new Set(['if', 'return', 'class']);

/** The scan's answer as the reference lists it: name, line, column, in order. */
function scanned(source: string, skip: [number, number][]): { name: string; line: number; column: number }[] {
  const uses = collectIdentifiers(source, Int32Array.from(skip.flat()), KEYWORDS, lineStarts(source));
  const out = [...uses].flatMap(([name, at]) => at.map((p) => ({ name, ...unpackPosition(p), p })));
  return out.sort((a, b) => a.p - b.p).map(({ name, line, column }) => ({ name, line, column }));
}

const same = (source: string, skip: [number, number][] = []) =>
  assert.deepEqual(scanned(source, skip), referenceWords(source, skip, KEYWORDS), JSON.stringify({ source, skip }));

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A syntax tree's node starts and ends between characters, never inside a surrogate pair. */
const whole = (source: string, i: number): number => (/[\udc00-\udfff]/.test(source[i] ?? '') ? i + 1 : i);

const ALPHABET = [
  'a',
  'Z',
  '_',
  '$',
  '#',
  '0',
  '9',
  ' ',
  '\n',
  '{',
  '}',
  '.',
  '"',
  'é',
  '日',
  '𝑥',
  '\u0301',
  '·',
  '\u200d',
  'if',
  'return',
];

describe('identifier scan', () => {
  it('finds the same words as the regular expression on chosen cases', () => {
    same('const total = items.length;\nreturn total;');
    same('this.#balance += 0x1F + 1e9 + a1b2 + _x + $y + $ + ${a}');
    same('a#b ##c #d e#');
    same('ñandú 日本語 𝑥Value x𝑥 \u0301mark a\u0301b ·dot a·b');
    same('if (x) return class_name;');
    same('  \n\n  x\n y', []);
    // A skipped range that ends inside a word: the rest of the word is no name of its own.
    same('"abc"def ghi', [[0, 5]]);
    same('abcdef ghi', [[0, 3]]);
    same('`x${a}yz`', [
      [1, 2],
      [6, 8],
    ]);
  });

  it('finds the same words as the regular expression on random texts with random skipped ranges', () => {
    const next = random(26);
    for (let run = 0; run < 3000; run++) {
      const parts = Array.from({ length: 1 + Math.floor(next() * 30) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]!);
      const source = parts.join('');
      const skip: [number, number][] = [];
      for (let at = 0; at < source.length; ) {
        const start = whole(source, at + Math.floor(next() * 8));
        const end = whole(source, start + Math.floor(next() * 5));
        if (end > source.length || next() < 0.5) break;
        skip.push([start, end]);
        at = end;
      }
      same(source, skip);
    }
  });
});
