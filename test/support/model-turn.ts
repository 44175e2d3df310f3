// A model turn as a test scripts it, independent of any vendor's wire format. The wire
// modules (anthropic-wire.ts, openai-wire.ts) turn it into the bytes each API streams.

export interface WireToolCall {
  /** The vendor's call id; one is made up when absent. */
  id?: string;
  name: string;
  input?: unknown;
  /**
   * The exact pieces of JSON text the input streams in. When absent, the JSON of `input`
   * is cut every `fragmentChars` code points.
   */
  fragments?: string[];
}

export interface WireUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface WireTurn {
  /** Thinking / reasoning text, chunk by chunk. */
  reasoning?: string[];
  /** Reply text, chunk by chunk (one delta event per chunk). */
  text?: string[];
  toolCalls?: WireToolCall[];
  /** Vendor-neutral stop; defaults to `tool_use` with tool calls, else `stop`. */
  stop?: 'stop' | 'tool_use' | 'length' | 'refusal';
  usage?: WireUsage;
  /** Anthropic: a `ping` event between every delta (one after message_start always). */
  pings?: boolean;
  model?: string;
  /** Default cut of tool-call JSON when no fragments are given. */
  fragmentChars?: number;
}

export function toolFragments(call: WireToolCall, fragmentChars = 8): string[] {
  if (call.fragments) return call.fragments;
  const points = Array.from(JSON.stringify(call.input ?? {}));
  const out: string[] = [];
  for (let i = 0; i < points.length; i += fragmentChars) out.push(points.slice(i, i + fragmentChars).join(''));
  return out;
}

export function stopOf(turn: WireTurn): NonNullable<WireTurn['stop']> {
  return turn.stop ?? (turn.toolCalls?.length ? 'tool_use' : 'stop');
}

export const usageOf = (turn: WireTurn): Required<WireUsage> => ({
  input: turn.usage?.input ?? 100,
  output: turn.usage?.output ?? 20,
  cacheRead: turn.usage?.cacheRead ?? 0,
  cacheWrite: turn.usage?.cacheWrite ?? 0,
});

/** Splits a long text into chunks of `size` characters (for streaming it delta by delta). */
export function chunkText(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
