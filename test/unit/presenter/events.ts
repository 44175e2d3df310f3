// Builders for kernel outputs, stamped with increasing seq numbers. Like the runtime, the factory
// folds every event it makes into the kernel's state (`state`), which a presenter reads.
import type { ConversationState, RuntimeEvent, RuntimeEventInput, RuntimeOutput, ToolIntent } from '../../../src/kernel/contracts/index.js';
import { applyEvent, initialState } from '../../../src/kernel/index.js';

export class EventFactory {
  seq = 0;
  time = 1_000_000;
  state: ConversationState = initialState();

  event(input: RuntimeEventInput): RuntimeEvent {
    this.seq += 1;
    const event = { ...input, seq: this.seq, runId: 'r1', time: this.time } as RuntimeEvent;
    this.state = applyEvent(this.state, event);
    return event;
  }

  out(input: RuntimeEventInput): RuntimeOutput {
    return { kind: 'event', event: this.event(input) };
  }

  intent(id: string, status: ToolIntent['status'] = 'proposed'): ToolIntent {
    return {
      id,
      tool: 'run_command',
      input: { command: 'npm test' },
      providerRef: `p-${id}`,
      summary: 'npm test',
      risk: 'execute',
      paths: [],
      status,
    };
  }

  /** A finished exchange: a user message and a completed reply. */
  exchange(i: number): RuntimeEvent[] {
    return [
      this.event({ type: 'user_message', text: `question ${i}` }),
      this.event({ type: 'turn_started', turn: 1 }),
      this.event({ type: 'text_delta', text: `answer ${i} with some **markdown**` }),
      this.event({ type: 'model_final', stopReason: 'stop' }),
    ];
  }
}
