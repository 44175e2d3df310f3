import assert from 'node:assert/strict';
import { applyEvent, initialState, Registry, replay, type RuntimeEvent } from '../../../src/kernel/index.js';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { drain, makeRuntime, readNote } from './helpers.js';

describe('kernel state', () => {
  it('rebuilds exactly from the event log', async () => {
    const { runtime } = makeRuntime([
      toolTurn('write_note', { path: 'b.txt', text: 'x' }, 'On it.'),
      toolTurn('read_note', { path: 'a.txt' }),
      textTurn('All done.'),
    ]);
    await drain(runtime.send('go'), (id) => runtime.approve(id));
    const events = runtime.getEvents();
    assert.ok(events.length > 10);
    assert.deepEqual(replay(events), runtime.getState());
    assert.deepEqual(replay(JSON.parse(JSON.stringify(events)) as RuntimeEvent[]), runtime.getState(), 'survives a JSON round trip');
  });

  it('folds incrementally without touching earlier messages', () => {
    let state = initialState();
    const stamp = (e: object, seq: number) => ({ ...e, seq, runId: 'r', time: seq }) as RuntimeEvent;
    state = applyEvent(state, stamp({ type: 'user_message', text: 'hi' }, 1));
    state = applyEvent(state, stamp({ type: 'turn_started', turn: 1 }, 2));
    const messagesBefore = state.messages;
    state = applyEvent(state, stamp({ type: 'text_delta', text: 'a' }, 3));
    state = applyEvent(state, stamp({ type: 'text_delta', text: 'b' }, 4));
    assert.equal(state.messages, messagesBefore, 'a text delta does not copy the message list');
    assert.equal(state.draft?.text, 'ab');
    assert.equal(state.lastSeq, 4);
  });

  it('discards an abandoned partial turn so its text does not appear twice', () => {
    const events = [
      { type: 'user_message', text: 'hi' },
      { type: 'turn_started', turn: 1 },
      { type: 'text_delta', text: 'Hello wor' },
      { type: 'turn_retry', attempt: 1, delayMs: 10, error: { kind: 'network', message: 'reset', retryable: true } },
      { type: 'text_delta', text: 'Hello world' },
      { type: 'model_final', stopReason: 'stop' },
    ].map((e, i) => ({ ...e, seq: i + 1, runId: 'r', time: i }) as RuntimeEvent);
    const state = replay(events);
    const last = state.messages.at(-1)!;
    assert.equal(last.type === 'assistant' && last.text, 'Hello world');
  });

  it('refuses duplicate names in the registry', () => {
    const registry = new Registry().addTool(readNote);
    assert.throws(() => registry.addTool(readNote), /already registered/);
  });
});
