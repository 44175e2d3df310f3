// The event log checks every event against its schema before writing it: a malformed event (a
// provider's text that is not a string, an event with no type) is an error for whoever emitted
// it and never a line in the log, so a saved task always reads back.
import assert from 'node:assert/strict';
import { EventLog, MemoryLogStore, RuntimeEventSchema, type ModelEvent, type RuntimeEventInput } from '../../../src/kernel/index.js';
import { drain, makeRuntime } from './helpers.js';

describe('kernel: the event log writes only events its schema accepts', () => {
  it('refuses an event with no type and one whose text is not a string, writing neither', () => {
    const store = new MemoryLogStore();
    const log = new EventLog(store);
    const told: unknown[] = [];
    log.subscribe((e) => told.push(e));
    assert.throws(() => log.append({ text: 'x' } as unknown as RuntimeEventInput, 'r1'), /without a type/);
    assert.throws(
      () => log.append({ type: 'text_delta', text: [{ type: 'text', text: 'hi' }] } as unknown as RuntimeEventInput, 'r1'),
      /text_delta/,
    );
    assert.throws(() => log.append({ type: 'usage', usage: { inputTokens: 'many' } } as unknown as RuntimeEventInput, 'r1'), /usage/);
    assert.equal(log.length, 0);
    assert.deepEqual(store.events, []);
    assert.deepEqual(told, []);
    log.append({ type: 'text_delta', text: 'fine' }, 'r1');
    assert.equal(log.length, 1, 'the log goes on after a refusal, numbering from where it was');
    assert.equal(log.at(1)?.seq, 1);
  });

  it('a provider that streams non-text as text fails the run with a clear error; every logged line parses', async () => {
    const bad = [
      { type: 'text_delta', text: [{ type: 'text', text: 'Hello' }] },
      { type: 'final', stopReason: 'stop' },
    ] as unknown as ModelEvent[];
    const store = new MemoryLogStore();
    const { runtime } = makeRuntime([bad], { store });
    await drain(runtime.send('hi'));
    const state = runtime.getState();
    assert.equal(state.status, 'failed');
    assert.match(state.lastError?.message ?? '', /refused to log a text_delta event/);
    for (const e of store.events) assert.ok(RuntimeEventSchema.safeParse(e).success, JSON.stringify(e));
    assert.ok(!store.events.some((e) => e.type === 'text_delta'));
  });
});
