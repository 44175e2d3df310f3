// Paging a file too large to hold whole (read_file past its in-memory limit). The bytes stream
// through once: lines are counted, the whole file is hashed (the same hash a whole read records,
// so an edit's staleness check still works) and only the lines of the page asked for are kept —
// each at most a few KB, so a 200 MB one-line file costs no more memory than a short one. Text is
// read as UTF-8 (a line that is not valid UTF-8 is shown as Latin-1, byte for byte).
import { ContentHasher } from '../../kernel/index.js';

/** Bytes of one line kept for showing; a longer line is cut (2,000 characters are shown at most). */
const LINE_BYTES_KEPT = 8192;
const MAX_LINE_CHARS = 2000;
const SNIFF_BYTES = 8000;

export type HugePage =
  | { type: 'page'; lines: string[]; firstLine: number; nextLine: number; total: number; hash: string; cut: boolean }
  | { type: 'binary' | 'utf16' };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** For a cut line, whose last character may be cut in half (shown as U+FFFD). */
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const latin1 = new TextDecoder('latin1');

/**
 * Lines `from` (0-based) up to `to` (exclusive), whole lines only, within `maxChars` of numbered
 * text. `nextLine` is the 0-based line after the last one shown.
 */
export async function readHugePage(
  chunks: AsyncIterable<Uint8Array>,
  size: number,
  from: number,
  to: number,
  maxChars: number,
): Promise<HugePage> {
  const hasher = new ContentHasher(size);
  const page = new PageBuilder(from, to, maxChars);
  let first = true;
  let read = 0;
  for await (const raw of chunks) {
    let chunk = raw;
    hasher.update(chunk);
    read += chunk.length;
    if (first) {
      first = false;
      const kind = sniff(chunk);
      if (kind) return { type: kind };
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    page.add(chunk);
  }
  if (read !== size) throw new Error(`the file changed while it was read (${read} bytes read, ${size} expected)`);
  return { type: 'page', ...page.finish(), hash: hasher.digest() };
}

function sniff(head: Uint8Array): 'binary' | 'utf16' | undefined {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return 'utf16';
  const end = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (head[i] === 0) return 'binary';
  return undefined;
}

/** Splits the stream into lines, keeping the bytes of the page's lines only. */
class PageBuilder {
  private line = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private lineBytes = 0;
  private readonly lines: string[] = [];
  private used = 0;
  private full = false;
  private cut = false;

  constructor(
    private readonly from: number,
    private readonly to: number,
    private readonly maxChars: number,
  ) {}

  add(chunk: Uint8Array): void {
    let pos = 0;
    for (let nl = chunk.indexOf(10, pos); nl !== -1; nl = chunk.indexOf(10, pos)) {
      this.keep(chunk.subarray(pos, nl));
      this.endLine();
      pos = nl + 1;
    }
    this.keep(chunk.subarray(pos));
  }

  finish(): { lines: string[]; firstLine: number; nextLine: number; total: number; cut: boolean } {
    // A last line without a newline is a line; an empty tail after the last newline is not.
    if (this.lineBytes > 0) this.endLine();
    return { lines: this.lines, firstLine: this.from + 1, nextLine: this.from + this.lines.length, total: this.line, cut: this.cut };
  }

  private collecting(): boolean {
    return !this.full && this.line >= this.from && this.line < this.to;
  }

  private keep(bytes: Uint8Array): void {
    this.lineBytes += bytes.length;
    if (!this.collecting() || this.pendingBytes >= LINE_BYTES_KEPT) return;
    const room = LINE_BYTES_KEPT - this.pendingBytes;
    const kept = bytes.length > room ? bytes.slice(0, room) : bytes.slice();
    this.pending.push(kept);
    this.pendingBytes += kept.length;
  }

  private endLine(): void {
    if (this.collecting()) this.show(this.text());
    this.line++;
    this.pending = [];
    this.pendingBytes = 0;
    this.lineBytes = 0;
  }

  private text(): string {
    const bytes = concat(this.pending, this.pendingBytes);
    const whole = this.pendingBytes === this.lineBytes;
    let text: string;
    try {
      text = whole ? utf8.decode(bytes) : lenientUtf8.decode(bytes);
    } catch {
      text = latin1.decode(bytes);
    }
    text = text.replace(/\r$/, '');
    if (!whole || text.length > MAX_LINE_CHARS) {
      this.cut = true;
      return `${text.slice(0, MAX_LINE_CHARS)} … [line cut: ${this.lineBytes} bytes]`;
    }
    return text;
  }

  private show(text: string): void {
    const row = String(this.line + 1).length + 3 + text.length + 1;
    if (this.used + row > this.maxChars && this.lines.length > 0) {
      this.full = true;
      return;
    }
    this.lines.push(text);
    this.used += row;
  }
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
