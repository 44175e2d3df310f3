// The identifiers of a file's code, found by one pass over its characters: every name-shaped word
// (a JavaScript private name `#x` included) that starts outside the ranges the syntax tree says
// hold no code (comments, string literals), reserved words left out. A word is a run of
// identifier characters that starts with an identifier-start character, `$` or `_`, and is not
// preceded by an identifier character, `$` or `#` — so `0x1F` and `1e9` hold none. ASCII is
// classified by a table; other characters by their Unicode properties. Positions are packed in
// one number per use and grouped by name, so a file of a thousand uses makes no object per use.

/** Where each identifier occurs in a file's code (packPosition), in order, grouped by name. */
export type UsesByName = Map<string, number[]>;

/** A position in one number (a column past 65535 is kept as 65535: generated code). */
export function packPosition(line: number, column: number): number {
  return line * 65536 + Math.min(column, 65535);
}

export function unpackPosition(at: number): { line: number; column: number } {
  return { line: Math.floor(at / 65536), column: at % 65536 };
}

/** ASCII classes: a name may start with it (letters, `$`, `_`), or only continue with it (digits). */
const START = 1;
const CONTINUE = 2;
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z$_]/.test(ch)) ASCII[c] = START | CONTINUE;
  else if (/[0-9]/.test(ch)) ASCII[c] = CONTINUE;
}
const HASH = 0x23;
const OPEN_BRACE = 0x7b;
const UNICODE_START = /^\p{ID_Start}$/u;
const UNICODE_CONTINUE = /^\p{ID_Continue}$/u;

function classOf(cp: number): number {
  if (cp < 128) return ASCII[cp]!;
  const ch = String.fromCodePoint(cp);
  if (UNICODE_START.test(ch)) return START | CONTINUE;
  return UNICODE_CONTINUE.test(ch) ? CONTINUE : 0;
}

/** The code point before index `i` (0 at the start). */
function codePointBefore(source: string, i: number): number {
  if (i === 0) return 0;
  const low = source.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = source.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

/** Whether a name may start at `i`: the character before is no identifier character, `$` or `#`. */
function freeBefore(source: string, i: number): boolean {
  const cp = codePointBefore(source, i);
  return cp !== HASH && (classOf(cp) & CONTINUE) === 0;
}

/** Where the run of identifier characters starting at `i` ends. */
function runEnd(source: string, i: number): number {
  const n = source.length;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c < 128) {
      if ((ASCII[c]! & CONTINUE) === 0) return i;
      i++;
    } else {
      const cp = source.codePointAt(i)!;
      if ((classOf(cp) & CONTINUE) === 0) return i;
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return i;
}

/**
 * Scans `source` for identifiers outside `skip` (start, end pairs in UTF-16 units, sorted by
 * start) and adds each one's packed position to `uses`. `lineStarts` holds where each line starts.
 */
export function collectIdentifiers(
  source: string,
  skip: Int32Array,
  keywords: ReadonlySet<string>,
  lineStarts: readonly number[],
): UsesByName {
  const uses: UsesByName = new Map();
  const n = source.length;
  const skips = skip.length >> 1;
  let s = 0;
  let line = 0;
  let i = 0;
  while (i < n) {
    const c = source.charCodeAt(i);
    const cp = c < 0xd800 || c > 0xdbff ? c : source.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const cls = classOf(cp);
    let at = i;
    let end: number;
    if (cls & START) {
      end = runEnd(source, i + width);
      if (!freeBefore(source, i)) {
        i = end;
        continue;
      }
    } else if (cls & CONTINUE) {
      // A run that starts with a digit holds no name (`1e9`, `0x1F`).
      i = runEnd(source, i + width);
      continue;
    } else if (cp === HASH && i + 1 < n && classOf(source.codePointAt(i + 1)!) & START && freeBefore(source, i)) {
      end = runEnd(source, i + 1);
    } else {
      i += width;
      continue;
    }
    while (s < skips && skip[2 * s + 1]! <= at) s++;
    if (s < skips && skip[2 * s]! <= at) {
      i = skip[2 * s + 1]!;
      continue;
    }
    i = end;
    const name = source.slice(at, end);
    // `${` opens a template's code; a lone `$` there is no name.
    if (keywords.has(name) || (name === '$' && source.charCodeAt(end) === OPEN_BRACE)) continue;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= at) line++;
    at = packPosition(line + 1, at - lineStarts[line]! + 1);
    const list = uses.get(name);
    if (list) list.push(at);
    else uses.set(name, [at]);
  }
  return uses;
}
