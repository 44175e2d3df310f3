// An edit's new bytes, made from the original bytes: every byte outside the replaced ranges is
// copied, never decoded and encoded again, so a file's BOM, odd trailing byte, line endings and
// characters an encoder would write differently stay as they were. Each range is checked before
// it is cut: its bytes must decode to exactly the text the match replaced, or the byte offsets
// are wrong and the edit is refused rather than written.
import { decodeBody, type DecodedText, encodeBody } from '../text/encoding.js';
import type { Replacement } from './edit-diff.js';

const utf8 = new TextEncoder();

export type Splice = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'unencodable' | 'not_preserved' };

/** `sorted` is ordered by start and does not overlap; offsets are into `text`, the decoded file. */
export function spliceBytes(original: Uint8Array | string, decoded: DecodedText, text: string, sorted: readonly Replacement[]): Splice {
  if (typeof original === 'string') return { ok: true, bytes: utf8.encode(apply(text, sorted)) };
  const parts: Uint8Array[] = [];
  for (const r of sorted) {
    const bytes = encodeBody(r.replacement, decoded.encoding);
    if (!bytes) return { ok: false, reason: 'unencodable' };
    parts.push(bytes);
  }
  const ranges = byteRanges(original, decoded, text, sorted);
  for (const [k, r] of sorted.entries()) {
    const [from, to] = ranges[k]!;
    if (decodeBody(original.subarray(from, to), decoded.encoding) !== text.slice(r.start, r.end))
      return { ok: false, reason: 'not_preserved' };
  }
  return { ok: true, bytes: join(original, ranges, parts) };
}

/** The byte range of each replaced text range. */
function byteRanges(original: Uint8Array, decoded: DecodedText, text: string, sorted: readonly Replacement[]): [number, number][] {
  const base = decoded.bomBytes ?? 0;
  const unit = decoded.encoding === 'utf16le' || decoded.encoding === 'utf16be' ? 2 : 1;
  // One byte (or two) per character: Latin-1, UTF-16, and UTF-8 that is all ASCII.
  const fixed = unit === 2 || decoded.encoding === 'latin1' || original.length - base === text.length;
  if (fixed) return sorted.map((r) => [base + r.start * unit, base + r.end * unit]);
  const out: [number, number][] = [];
  let [at, byte] = [0, base];
  for (const r of sorted) {
    byte += utf8Length(text, at, r.start);
    const from = byte;
    byte += utf8Length(text, r.start, r.end);
    out.push([from, byte]);
    at = r.end;
  }
  return out;
}

function utf8Length(text: string, from: number, to: number): number {
  return from === to ? 0 : utf8.encode(text.slice(from, to)).length;
}

function join(original: Uint8Array, ranges: readonly [number, number][], parts: readonly Uint8Array[]): Uint8Array {
  const size = original.length + ranges.reduce((n, [from, to], k) => n + parts[k]!.length - (to - from), 0);
  const out = new Uint8Array(size);
  let [copied, at] = [0, 0];
  ranges.forEach(([from, to], k) => {
    out.set(original.subarray(copied, from), at);
    at += from - copied;
    out.set(parts[k]!, at);
    at += parts[k]!.length;
    copied = to;
  });
  out.set(original.subarray(copied), at);
  return out;
}

function apply(text: string, sorted: readonly Replacement[]): string {
  let [out, at] = ['', 0];
  for (const r of sorted) {
    out += text.slice(at, r.start) + r.replacement;
    at = r.end;
  }
  return out + text.slice(at);
}
