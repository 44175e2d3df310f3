// A provider that calls no model: it yields a recorded task log's model events again, turn by
// turn, so `keel replay` can push the same model output through the current build.
import type { ModelCapabilities, ModelEvent, ModelProvider, ModelRequest, ModelSwitch } from '../kernel/contracts/model.js';
import type { RuntimeEvent } from '../kernel/contracts/events.js';

/** The model events of each completed turn in a log; a turn abandoned for a retry is left out. */
export function recordedTurns(events: readonly RuntimeEvent[]): ModelEvent[][] {
  const turns: ModelEvent[][] = [];
  let turn: ModelEvent[] | undefined;
  for (const e of events) {
    if (e.type === 'turn_started' || e.type === 'turn_retry') turn = [];
    else if (!turn) continue;
    else if (e.type === 'text_delta' || e.type === 'reasoning_delta') turn.push({ type: e.type, text: e.text });
    else if (e.type === 'usage') turn.push({ type: 'usage', usage: e.usage });
    else if (e.type === 'model_reasoning') turn.push({ type: 'reasoning', reasoning: e.reasoning });
    else if (e.type === 'intent_proposed')
      turn.push({ type: 'tool_intent', providerRef: e.intent.providerRef, tool: e.intent.tool, input: e.intent.input });
    else if (e.type === 'model_final' || e.type === 'model_error') {
      turn.push(e.type === 'model_final' ? { type: 'final', stopReason: e.stopReason } : { type: 'error', error: e.error });
      turns.push(turn);
      turn = undefined;
    }
  }
  return turns;
}

export class RecordedProvider implements ModelProvider {
  readonly name = 'replay';
  readonly capabilities: ModelCapabilities = {
    tools: true,
    vision: true,
    promptCaching: false,
    contextWindow: 10_000_000,
    maxOutputTokens: 1,
  };
  private next = 0;

  /**
   * `turns`: the frame's turns, or a function giving them when its first turn is asked for
   * (a child is matched to its recording once it started). `frameTurns`: a child frame's.
   */
  constructor(
    private turns: readonly ModelEvent[][] | (() => readonly ModelEvent[][]),
    readonly model: string,
    private readonly frameTurns: (frameId: string) => readonly ModelEvent[][] = () => [],
  ) {}

  /** The next run's turns (a task of several messages replays each run from its own turns). */
  startRun(turns: readonly ModelEvent[][]): void {
    this.turns = turns;
    this.next = 0;
  }

  forFrame(frameId: string): ModelProvider {
    return new RecordedProvider(() => this.frameTurns(frameId), this.model, this.frameTurns);
  }

  /** The recording already holds whichever model ran: an agent's model plays the same turns. */
  withModel(): ModelSwitch {
    return { type: 'same' };
  }

  async *stream(_request: ModelRequest, _signal: AbortSignal): AsyncIterable<ModelEvent> {
    const turns = typeof this.turns === 'function' ? this.turns() : this.turns;
    const turn = turns[this.next++];
    if (!turn) {
      yield { type: 'error', error: { kind: 'unknown', message: 'The recording has no further model turn.', retryable: false } };
      return;
    }
    yield* turn;
  }
}
