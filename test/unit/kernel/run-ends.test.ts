// The one list of the events that end a run (contracts/events.ts), read by the view, the diffs
// and Retry: every entry is a logged event type, and only the ends are in it.
import assert from 'node:assert/strict';
import { endsRun, RUN_END_TYPES, RuntimeEventSchema } from '../../../src/kernel/index.js';

describe('run ends', () => {
  it('names logged event types, each way a run ends and nothing else', () => {
    const logged = new Set(RuntimeEventSchema.options.map((o) => o.shape.type.value));
    for (const type of RUN_END_TYPES) assert.ok(logged.has(type), type);
    assert.deepEqual([...logged].filter(endsRun).sort(), ['run_cancelled', 'run_failed', 'run_finished']);
  });
});
