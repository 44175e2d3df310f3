// Tool calls arrive as JSON text in many fragments (split anywhere: inside a string, an
// escape, a number). Fragments are only collected while streaming and parsed once, when
// the turn is complete. A call whose JSON is not whole in a finished turn is the model's
// mistake, not the network's: it goes out with `inputError` (so the model is told and can
// try again) instead of failing the turn, since the same request would only repeat it.
import type { ModelEvent } from '../kernel/contracts/index.js';

interface Slot {
  ref: string;
  name: string;
  parts: string[];
  closed: boolean;
  /** The input sent whole when the call began (Anthropic's content_block_start); fragments win. */
  whole: unknown;
}

export class ToolCallAssembler {
  /** Keyed by the wire's block / call index; a Map keeps first-appearance order. */
  private readonly slots = new Map<number, Slot>();

  get size(): number {
    return this.slots.size;
  }

  start(key: number, ref: string, name: string, whole?: unknown): void {
    this.slots.set(key, { ref, name, parts: [], closed: false, whole });
  }

  has(key: number): boolean {
    return this.slots.has(key);
  }

  /** Fills in an id or name that a later fragment carries (some OpenAI-compatible servers). */
  amend(key: number, ref: string | undefined, name: string | undefined): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    if (ref && !slot.ref) slot.ref = ref;
    if (name && !slot.name) slot.name = name;
  }

  append(key: number, fragment: string): void {
    if (fragment) this.slots.get(key)?.parts.push(fragment);
  }

  close(key: number): void {
    const slot = this.slots.get(key);
    if (slot) slot.closed = true;
  }

  /**
   * The calls as intents, in order, once the turn is finished. A call whose JSON does not parse,
   * or that was never closed (when `requireClosed`), carries `inputError`; `truncated` says the
   * model hit its output limit, which explains the cut.
   */
  intents(opts: { requireClosed: boolean; truncated: boolean }): ModelEvent[] {
    return [...this.slots.values()].map((slot): ModelEvent => {
      const parsed = opts.requireClosed && !slot.closed ? ({ ok: false, error: 'the call was never closed' } as const) : inputOf(slot);
      if (parsed.ok) return { type: 'tool_intent', providerRef: slot.ref, tool: slot.name, input: parsed.value };
      return {
        type: 'tool_intent',
        providerRef: slot.ref,
        tool: slot.name,
        input: null,
        inputError: inputError(parsed.error, opts.truncated),
      };
    });
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** The streamed fragments when any came; else the input the call began with (a whole object). */
function inputOf(slot: Slot): Parsed {
  if (slot.parts.length === 0 && slot.whole !== null && typeof slot.whole === 'object') return { ok: true, value: slot.whole };
  return parse(slot.parts.join(''));
}

/** The parser's own words are kept short: they may quote the model's text back. */
const MAX_PARSE_ERROR_CHARS = 200;

function parse(json: string): Parsed {
  // A call without arguments streams no JSON at all: that is an empty input object.
  if (json.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: message.length > MAX_PARSE_ERROR_CHARS ? `${message.slice(0, MAX_PARSE_ERROR_CHARS)}…` : message };
  }
}

function inputError(parseError: string, truncated: boolean): string {
  if (truncated)
    return (
      `the reply reached the output token limit in the middle of its input, so the input is incomplete (${parseError}). ` +
      'Make smaller calls, for example a shorter file content or fewer edits at once.'
    );
  return `its input is not valid JSON (${parseError}). Send the whole input again as one JSON object.`;
}
