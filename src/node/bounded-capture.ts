// Keeps the head and the tail of a stream of text and counts what fell between them, so a
// command printing 50 MB costs a few hundred KB of memory at most.
import type { CapturedStream } from '../kernel/index.js';

export class BoundedCapture {
  private head = '';
  private tailParts: string[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.maxChars) {
      const room = this.maxChars - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk === '') return;
    }
    this.tailParts.push(chunk);
    this.tailLength += chunk.length;
    if (this.tailLength > 2 * this.maxChars) this.compact();
  }

  result(): CapturedStream {
    this.compact();
    const tail = this.tailParts[0] ?? '';
    return { head: this.head, tail, omittedChars: this.total - this.head.length - tail.length, totalChars: this.total };
  }

  private compact(): void {
    const joined = this.tailParts.join('');
    const tail = joined.length > this.maxChars ? joined.slice(joined.length - this.maxChars) : joined;
    this.tailParts = tail ? [tail] : [];
    this.tailLength = tail.length;
  }
}
