// Small pure helpers shared by the kernel, the tools and the hosts: hashing, token estimates,
// and showing text a person must judge (a command line to approve) with nothing hidden in it.

const encoder = new TextEncoder();

/** A fast 64-bit content hash (two FNV-1a lanes), hex. For change detection, not security. */
export function contentHash(input: Uint8Array | string): string {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    const x = bytes[i]!;
    a = Math.imul(a ^ x, 0x01000193);
    b = Math.imul(b ^ x, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The kernel's token estimate: characters / 4, rounded up. Good enough for budgeting. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Keeps the head and tail of a long text, saying how much was cut. */
export function shortenMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - 60);
  const head = text.slice(0, Math.ceil(keep * 0.6));
  const tail = text.slice(text.length - Math.floor(keep * 0.4));
  const cut = text.length - head.length - tail.length;
  return `${head}\n[… ${cut} characters cut by Keel to fit the context …]\n${tail}`;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Characters that draw nothing, move the cursor, or reorder what is shown: controls (C0, DEL,
 * C1 — ESC starts terminal escape sequences), bidi embeddings, overrides, isolates and marks,
 * zero-width and non-breaking spaces, line and paragraph separators, the soft hyphen, Hangul
 * fillers, variation selectors, interlinear annotations and tag characters.
 */
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u00a0\u00ad\u061c\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu;
const NAMED: Record<string, string> = { '\t': 'TAB', '\n': 'LF', '\r': 'CR', '\u001b': 'ESC', '\u00a0': 'NBSP' };

/**
 * The text with every invisible or reordering character shown as a visible marker, ⟨TAB⟩,
 * ⟨LF⟩, ⟨ESC⟩, ⟨NBSP⟩ or ⟨U+202E⟩, so what a person approves is exactly what runs: one line,
 * no hidden part, no text that draws over or reverses other text. Everything else is kept as is.
 */
export function showInvisibles(text: string): string {
  return text.replace(INVISIBLE, (c) => `⟨${NAMED[c] ?? `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`}⟩`);
}
