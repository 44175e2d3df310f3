// Tool calls arrive as JSON text in many fragments (split anywhere: inside a string, an
// escape, a number). Fragments are only collected while streaming and parsed once, when
// the turn is complete; a call whose JSON is not whole never becomes an intent.
import type { ModelEvent } from '../kernel/contracts/index.js';
import { TurnFailure, modelError } from './errors.js';

interface Slot {
  ref: string;
  name: string;
  parts: string[];
  closed: boolean;
}

export class ToolCallAssembler {
  /** Keyed by the wire's block / call index; a Map keeps first-appearance order. */
  private readonly slots = new Map<number, Slot>();

  get size(): number {
    return this.slots.size;
  }

  start(key: number, ref: string, name: string): void {
    this.slots.set(key, { ref, name, parts: [], closed: false });
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
   * The calls as intents, in order. Throws TurnFailure on the first call whose JSON does not
   * parse or that was never closed (when `requireClosed`); `truncated` says the model hit its
   * output limit, which no retry of the same request would cure.
   */
  intents(opts: { requireClosed: boolean; truncated: boolean }): ModelEvent[] {
    const events: ModelEvent[] = [];
    for (const slot of this.slots.values()) {
      const input = opts.requireClosed && !slot.closed ? INCOMPLETE : parse(slot.parts.join(''));
      if (input === INCOMPLETE) throw new TurnFailure(incompleteError(slot, opts.truncated));
      events.push({ type: 'tool_intent', providerRef: slot.ref, tool: slot.name, input });
    }
    return events;
  }
}

const INCOMPLETE = Symbol('incomplete');

function parse(json: string): unknown {
  // A call without arguments streams no JSON at all: that is an empty input object.
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json);
  } catch {
    return INCOMPLETE;
  }
}

function incompleteError(slot: Slot, truncated: boolean) {
  if (truncated)
    return modelError(
      'unknown',
      `The reply reached the output token limit in the middle of a call to "${slot.name}"; ` +
        'its input is incomplete, so the call was dropped. Raise the max output tokens setting or ask for smaller steps.',
      false,
    );
  return modelError('unknown', `The model sent incomplete or invalid JSON input for "${slot.name}".`, true);
}
