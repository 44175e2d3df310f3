// Where a finished read looked: the file and the lines its observation says were read, so a
// click on its card opens the file there. Taken from the log (facts.read), never from the
// model's input: what was shown to the model is what the user is taken to.
import type { RuntimeEvent } from '../../kernel/contracts/index.js';

export interface ReadLocation {
  path: string;
  /** 1-based, inclusive; `to` < `from` for an empty file. */
  from: number;
  to: number;
}

export function readLocation(events: readonly RuntimeEvent[], intentId: string): ReadLocation | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type !== 'observation' || event.observation.intentId !== intentId) continue;
    const read = event.observation.facts?.read;
    return read ? { path: read.path, from: read.from, to: read.to } : undefined;
  }
  return undefined;
}
