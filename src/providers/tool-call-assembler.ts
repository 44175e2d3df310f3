// Tool calls arrive as JSON text in many fragments (split anywhere: inside a string, an
// escape, a number). Fragments are only collected while streaming and parsed once, when
// the turn is complete. A call whose JSON is not whole in a finished turn is the model's
// mistake, not the network's: it goes out with `inputError` (so the model is told and can
// try again) instead of failing the turn, since the same request would only repeat it.
// While a call streams, each fragment gives a `tool_input_progress` (its bytes so far, and the
// file it names once its "path" is whole in the first bytes): people see it grow, nothing acts on it.
import type { ModelEvent } from '../kernel/contracts/index.js';

interface Slot {
  ref: string;
  name: string;
  parts: string[];
  closed: boolean;
  /** The input sent whole when the call began (Anthropic's content_block_start); fragments win. */
  whole: unknown;
  /** The call's place in the turn (0, 1, …), for its progress. */
  call: number;
  bytes: number;
  /** The first PATH_SCAN_CHARS of the input, searched for the file it names until found. */
  head: string;
  path?: string;
}

type Progress = Extract<ModelEvent, { type: 'tool_input_progress' }>;

/** How far into a call's input its "path" is looked for (tools name it first); bounded, so progress costs O(fragment). */
const PATH_SCAN_CHARS = 2048;
const PATH_FIELD = /"(?:path|file_path)"\s*:\s*"((?:[^"\\]|\\.){1,1000})"/;

export class ToolCallAssembler {
  /** Keyed by the wire's block / call index; a Map keeps first-appearance order. */
  private readonly slots = new Map<number, Slot>();

  get size(): number {
    return this.slots.size;
  }

  start(key: number, ref: string, name: string, whole?: unknown): Progress {
    const slot: Slot = { ref, name, parts: [], closed: false, whole, call: this.slots.size, bytes: 0, head: '' };
    this.slots.set(key, slot);
    return progressOf(slot);
  }

  has(key: number): boolean {
    return this.slots.has(key);
  }

  /** The input's bytes streamed so far (0: none yet). */
  bytesOf(key: number): number {
    return this.slots.get(key)?.bytes ?? 0;
  }

  /** Fills in an id or name that a later fragment carries (some OpenAI-compatible servers). */
  amend(key: number, ref: string | undefined, name: string | undefined): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    if (ref && !slot.ref) slot.ref = ref;
    if (name && !slot.name) slot.name = name;
  }

  append(key: number, fragment: string): Progress | undefined {
    const slot = this.slots.get(key);
    if (!slot || !fragment) return undefined;
    slot.parts.push(fragment);
    slot.bytes += utf8Bytes(fragment);
    if (slot.path === undefined && slot.head.length < PATH_SCAN_CHARS) findPath(slot, fragment);
    return progressOf(slot);
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

function progressOf(slot: Slot): Progress {
  return { type: 'tool_input_progress', call: slot.call, tool: slot.name, bytes: slot.bytes, ...(slot.path ? { path: slot.path } : {}) };
}

/** Looks for the whole "path" string in the input's head (only when a quote arrives: a string may have closed). */
function findPath(slot: Slot, fragment: string): void {
  slot.head += fragment.slice(0, PATH_SCAN_CHARS - slot.head.length);
  if (!fragment.includes('"')) return;
  const found = PATH_FIELD.exec(slot.head);
  if (!found) return;
  try {
    slot.path = JSON.parse(`"${found[1]}"`) as string;
  } catch {
    // A broken escape: no path to show.
  }
}

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? 4 : c >= 0xdc00 && c < 0xe000 ? 0 : 3;
  }
  return bytes;
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
