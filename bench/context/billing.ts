// How Anthropic would bill a sequence of Messages requests, from their wire bodies: each
// request is cut into blocks in cache order (tools + system, then every content block), each
// weighed with the kernel's estimator; a request reads from the cache the longest prefix some
// earlier request wrote at a breakpoint (looking back at most 20 blocks from each of its own
// breakpoints, as the API does), writes up to its last breakpoint, and pays full price for the
// rest. (The yardstick Keel is graded on is billed from the task, not from these requests:
// yardstick.ts.)
import { contentHash, estimateTokens } from '../../src/kernel/index.js';
import type { Price } from '../../src/providers/index.js';

export interface Block {
  /** Identity for prefix matching: the block without its cache mark, and where a turn starts. */
  key: string;
  tokens: number;
  breakpoint: boolean;
}

export interface Bill {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

const LOOKBACK_BLOCKS = 20;

type WireBlock = { type: string; cache_control?: unknown; [k: string]: unknown };
type WireBody = { system?: WireBlock[]; tools?: WireBlock[]; messages: { role: string; content: string | WireBlock[] }[] };

/** The blocks of a request; `fixedTokens` weighs system + tools as the kernel does. */
export function blocksOf(body: WireBody, fixedTokens: number): Block[] {
  const head = JSON.stringify([strip(body.tools ?? []), strip(body.system ?? [])]);
  const marked = [...(body.tools ?? []), ...(body.system ?? [])].some((b) => b.cache_control);
  const blocks: Block[] = [{ key: head, tokens: fixedTokens, breakpoint: marked }];
  for (const message of body.messages) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    content.forEach((b, i) => {
      const key = `${i === 0 ? `${message.role}|` : ''}${JSON.stringify(strip([b])[0])}`;
      blocks.push({ key, tokens: blockTokens(b), breakpoint: !!b.cache_control });
    });
  }
  return blocks;
}

/** Each block weighed like the kernel weighs the message it came from (characters / 4). */
function blockTokens(b: WireBlock): number {
  if (b.type === 'text') return estimateTokens(String(b.text)) + 4;
  if (b.type === 'tool_use') return estimateTokens(JSON.stringify(b.input)) + 10;
  if (b.type === 'tool_result') return estimateTokens(typeof b.content === 'string' ? b.content : JSON.stringify(b.content)) + 10;
  if (b.type === 'image') return 1600;
  return estimateTokens(JSON.stringify(b));
}

function strip(blocks: WireBlock[]): unknown[] {
  return blocks.map(({ cache_control: _mark, ...rest }) => rest);
}

function prefixKeys(blocks: Block[]): string[] {
  const keys: string[] = [];
  let running = '';
  for (const b of blocks) keys.push((running = contentHash(`${running}\u0000${b.key}`)));
  return keys;
}

function sum(blocks: Block[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n += blocks[i]!.tokens;
  return n;
}

/** Anthropic's prompt cache over a run's requests, in order. */
export class CacheSimulator {
  private readonly written = new Set<string>();

  bill(blocks: Block[]): Bill {
    const keys = prefixKeys(blocks);
    const ends = blocks.flatMap((b, i) => (b.breakpoint ? [i + 1] : []));
    let read = 0;
    for (const end of ends) {
      for (let at = end; at >= Math.max(1, end - LOOKBACK_BLOCKS); at--) {
        if (!this.written.has(keys[at - 1]!)) continue;
        read = Math.max(read, at);
        break;
      }
    }
    const last = ends.length ? ends[ends.length - 1]! : 0;
    for (const end of ends) this.written.add(keys[end - 1]!);
    return {
      cacheRead: sum(blocks, 0, read),
      cacheWrite: last > read ? sum(blocks, read, last) : 0,
      input: sum(blocks, Math.max(read, last), blocks.length),
    };
  }
}

export function costOfBill(b: Bill, outputTokens: number, p: Price): number {
  return (b.input * p.input + b.cacheRead * p.cacheRead + b.cacheWrite * p.cacheWrite + outputTokens * p.output) / 1_000_000;
}

/**
 * True when `body` changed the prefix of the request before it anywhere but in its last two
 * messages (the new assistant turn and the new results are expected; anything earlier is a break).
 */
export function prefixBroken(previous: WireBody | undefined, body: WireBody): boolean {
  if (!previous) return false;
  const head = (b: WireBody) => JSON.stringify([strip(b.tools ?? []), strip(b.system ?? [])]);
  if (head(previous) !== head(body)) return true;
  const msg = (m: WireBody['messages'][number]) => JSON.stringify([m.role, typeof m.content === 'string' ? m.content : strip(m.content)]);
  const keep = body.messages.length - 2;
  for (let i = 0; i < keep; i++) {
    const before = previous.messages[i];
    if (!before) return false;
    if (msg(before) !== msg(body.messages[i]!)) return true;
  }
  return false;
}

/** The goal as sent: the first block of the first user message, without its cache mark. */
export function goalBytes(body: WireBody): string {
  const first = body.messages[0]!;
  const block = typeof first.content === 'string' ? first.content : strip([first.content[0]!])[0];
  return JSON.stringify(block);
}
