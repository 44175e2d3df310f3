// A provider that plays a script: each turn given as ModelEvents, or computed from the
// request. How the kernel is tested, and what the CLI's demo runs on.
import type { ModelCapabilities, ModelEvent, ModelProvider, ModelRequest } from '../kernel/index.js';

type ScriptedTurn = ModelEvent[] | AsyncIterable<ModelEvent>;
export type Script = ScriptedTurn[] | ((request: ModelRequest, turnIndex: number) => ScriptedTurn);

export interface ScriptedOptions {
  name?: string;
  model?: string;
  capabilities?: Partial<ModelCapabilities>;
}

export class ScriptedProvider implements ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly capabilities: ModelCapabilities;
  /** Every request received, in order: tests assert on what the model was shown. */
  readonly requests: ModelRequest[] = [];

  constructor(
    private readonly script: Script,
    options: ScriptedOptions = {},
  ) {
    this.name = options.name ?? 'scripted';
    this.model = options.model ?? 'scripted';
    this.capabilities = {
      tools: true,
      vision: false,
      promptCaching: false,
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      ...options.capabilities,
    };
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    const index = this.requests.length;
    this.requests.push(request);
    let turn: ScriptedTurn | undefined;
    try {
      turn = typeof this.script === 'function' ? this.script(request, index) : this.script[index];
    } catch (err) {
      return once({ type: 'error', error: { kind: 'unknown', message: `The script failed: ${(err as Error).message}`, retryable: false } });
    }
    if (!turn)
      return once({ type: 'error', error: { kind: 'unknown', message: `The script has no turn ${index + 1}.`, retryable: false } });
    return abortable(turn, signal);
  }
}

async function* once(event: ModelEvent): AsyncIterable<ModelEvent> {
  yield event;
}

/** Passes events through until the signal aborts, then ends with a cancelled error. */
function abortable(turn: ScriptedTurn, signal: AbortSignal): AsyncIterable<ModelEvent> {
  return {
    [Symbol.asyncIterator]() {
      const inner = Array.isArray(turn) ? turn[Symbol.iterator]() : (turn as AsyncIterable<ModelEvent>)[Symbol.asyncIterator]();
      let done = false;
      return {
        async next(): Promise<IteratorResult<ModelEvent>> {
          if (done) return { value: undefined, done: true };
          if (signal.aborted) {
            done = true;
            return { value: { type: 'error', error: { kind: 'cancelled', message: 'Cancelled.', retryable: false } }, done: false };
          }
          const r = await inner.next();
          if (r.done) done = true;
          return r;
        },
      };
    },
  };
}

/** A turn that says `text` and stops. */
export function textTurn(text: string): ModelEvent[] {
  return [
    { type: 'text_delta', text },
    { type: 'final', stopReason: 'stop' },
  ];
}

/** A turn that says `text` (if any) and calls one tool. */
export function toolTurn(tool: string, input: unknown, text = '', ref = `call_${tool}`): ModelEvent[] {
  const events: ModelEvent[] = text ? [{ type: 'text_delta', text }] : [];
  events.push({ type: 'tool_intent', providerRef: ref, tool, input }, { type: 'final', stopReason: 'tool_intent' });
  return events;
}
