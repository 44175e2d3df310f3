// Small pure helpers shared by the kernel, the tools and the hosts: hashing, token estimates,
// and showing text a person must judge (a command line to approve) with nothing hidden in it.

const encoder = new TextEncoder();

/** A fast 64-bit content hash (two FNV-1a lanes), hex. For change detection, not security. */
export function contentHash(input: Uint8Array | string): string {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  const hasher = new ContentHasher(bytes.length);
  hasher.update(bytes);
  return hasher.digest();
}

/**
 * contentHash of a file read in pieces (one too large to hold whole): the same digest, given the
 * total length up front (the hash is seeded with it).
 */
export class ContentHasher {
  private a = 0x811c9dc5;
  private b: number;

  constructor(length: number) {
    this.b = 0x01000193 ^ length;
  }

  update(bytes: Uint8Array): void {
    let { a, b } = this;
    for (let i = 0; i < bytes.length; i++) {
      const x = bytes[i]!;
      a = Math.imul(a ^ x, 0x01000193);
      b = Math.imul(b ^ x, 0x5bd1e995) ^ (b >>> 15);
    }
    [this.a, this.b] = [a, b];
  }

  digest(): string {
    return (this.a >>> 0).toString(16).padStart(8, '0') + (this.b >>> 0).toString(16).padStart(8, '0');
  }
}

/** The kernel's token estimate: characters / 4, rounded up. Good enough for budgeting. */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}

/** The same estimate for a text of `chars` characters (a bound known before the text is built). */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / 4);
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
