// Text encodings: detect a file's encoding, decode it, and encode edited text back the same way,
// so that bytes outside an edit never change (BOM, UTF-16, Latin-1 and CRLF kept).

export type TextEncodingName = 'utf8' | 'utf8bom' | 'utf16le' | 'utf16be' | 'latin1';
export type Eol = '\n' | '\r\n';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** Bytes of the BOM the text was decoded after (the BOM is not part of the text). */
  bomBytes?: number;
  /**
   * Set on a file read as Latin-1 that also holds valid UTF-8 characters: it is in no one
   * encoding (UTF-8 with a stray byte, typically Windows-1252), so no edit can keep it whole.
   * The offset of the first byte that is not UTF-8.
   */
  mixedAt?: number;
  /** The file's dominant line ending; LF in new text is converted to it. */
  eol: Eol;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Faster than the fatal decoder; invalid bytes always show as U+FFFD, which sends the text to the fatal one. */
const utf8Loose = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();
const SNIFF_BYTES = 8000;

/** A NUL byte in the first few KB (without a UTF-16 BOM) means binary, as git decides. */
export function isBinary(bytes: Uint8Array): boolean {
  if (bomOf(bytes) === 'utf16le' || bomOf(bytes) === 'utf16be') return false;
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

function bomOf(b: Uint8Array): TextEncodingName | undefined {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf8bom';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf16le';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf16be';
  return undefined;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = bomOf(bytes);
  let text: string;
  let encoding: TextEncodingName;
  let mixedAt: number | undefined;
  if (bom === 'utf8bom') [text, encoding] = [decodeUtf8(bytes.subarray(3)), bom];
  else if (bom === 'utf16le') [text, encoding] = [decodeUtf16(bytes.subarray(2), true), bom];
  else if (bom === 'utf16be') [text, encoding] = [decodeUtf16(bytes.subarray(2), false), bom];
  else {
    try {
      [text, encoding] = [decodeUtf8(bytes), 'utf8'];
    } catch {
      // Not valid UTF-8: Latin-1 maps every byte to one char, so it always round-trips.
      [text, encoding] = [decodeLatin1(bytes), 'latin1'];
      mixedAt = mixedUtf8(bytes);
    }
  }
  const bomBytes = bom === 'utf8bom' ? 3 : bom ? 2 : 0;
  return { text, encoding, eol: detectEol(text), ...(bomBytes ? { bomBytes } : {}), ...(mixedAt !== undefined ? { mixedAt } : {}) };
}

/** Strict UTF-8: throws on invalid bytes. */
function decodeUtf8(bytes: Uint8Array): string {
  const text = utf8Loose.decode(bytes);
  return text.includes('\uFFFD') ? utf8.decode(bytes) : text;
}

/** Length of the UTF-8 sequence starting at i (2–4), or 0 when none is there. */
function utf8SequenceAt(b: Uint8Array, i: number): number {
  const lead = b[i]!;
  const n = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  for (let k = 1; k < n; k++) if (((b[i + k] ?? 0) & 0xc0) !== 0x80) return 0;
  return n;
}

/** For bytes that are not valid UTF-8: the first bad byte's offset when some UTF-8 sequence is valid too. */
function mixedUtf8(b: Uint8Array): number | undefined {
  let firstBad: number | undefined;
  let sawSequence = false;
  for (let i = 0; i < b.length; i++) {
    if (b[i]! < 0x80) continue;
    const n = utf8SequenceAt(b, i);
    if (n === 0) firstBad ??= i;
    else {
      sawSequence = true;
      i += n - 1;
    }
    if (sawSequence && firstBad !== undefined) return firstBad;
  }
  return undefined;
}

/** Encodes text in the given encoding; undefined when a character cannot be represented. */
export function encodeText(text: string, encoding: TextEncodingName): Uint8Array | undefined {
  switch (encoding) {
    case 'utf8':
      return encoder.encode(text);
    case 'utf8bom':
      return concat(new Uint8Array([0xef, 0xbb, 0xbf]), encoder.encode(text));
    case 'utf16le':
      return concat(new Uint8Array([0xff, 0xfe]), encodeUtf16(text, true));
    case 'utf16be':
      return concat(new Uint8Array([0xfe, 0xff]), encodeUtf16(text, false));
    case 'latin1':
      return encodeLatin1(text);
  }
}

export function describeEncoding(d: Pick<DecodedText, 'encoding' | 'eol'>): string {
  const names: Record<TextEncodingName, string> = {
    utf8: 'UTF-8',
    utf8bom: 'UTF-8 with BOM',
    utf16le: 'UTF-16 LE',
    utf16be: 'UTF-16 BE',
    latin1: 'Latin-1',
  };
  return `${names[d.encoding]}, ${d.eol === '\r\n' ? 'CRLF' : 'LF'}`;
}

/** Encodes text without the encoding's BOM (a piece of a file); undefined when a character cannot be represented. */
export function encodeBody(text: string, encoding: TextEncodingName): Uint8Array | undefined {
  if (encoding === 'utf8' || encoding === 'utf8bom') return encoder.encode(text);
  if (encoding === 'latin1') return encodeLatin1(text);
  return encodeUtf16(text, encoding === 'utf16le');
}

/** Decodes a piece of a file (no BOM) in the given encoding; undefined when it is not valid there. */
export function decodeBody(bytes: Uint8Array, encoding: TextEncodingName): string | undefined {
  if (encoding === 'latin1') return decodeLatin1(bytes);
  if (encoding === 'utf16le' || encoding === 'utf16be') return bytes.length % 2 ? undefined : decodeUtf16(bytes, encoding === 'utf16le');
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function detectEol(text: string): Eol {
  const lf = text.indexOf('\n');
  return lf > 0 && text.charCodeAt(lf - 1) === 13 ? '\r\n' : '\n';
}

function decodeUtf16(b: Uint8Array, little: boolean): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let i = 0; i + 1 < b.length; i += CHUNK * 2) {
    const units: number[] = [];
    for (let j = i; j + 1 < b.length && j < i + CHUNK * 2; j += 2) {
      units.push(little ? b[j]! | (b[j + 1]! << 8) : (b[j]! << 8) | b[j + 1]!);
    }
    parts.push(String.fromCharCode(...units));
  }
  return parts.join('');
}

function encodeUtf16(text: string, little: boolean): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i * 2] = little ? c & 0xff : c >> 8;
    out[i * 2 + 1] = little ? c >> 8 : c & 0xff;
  }
  return out;
}

function decodeLatin1(b: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let i = 0; i < b.length; i += CHUNK) parts.push(String.fromCharCode(...b.subarray(i, i + CHUNK)));
  return parts.join('');
}

function encodeLatin1(text: string): Uint8Array | undefined {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return undefined;
    out[i] = c;
  }
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
