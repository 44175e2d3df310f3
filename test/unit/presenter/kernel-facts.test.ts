// The view's run status and usage are the kernel's (issue 24 #7): the presenter reads them from
// the kernel's state after each output, never folding the events a second time its own way.
import assert from 'node:assert/strict';
import type { HostMessage } from '../../../src/protocol/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { replay } from '../../../src/kernel/index.js';
import { EventFactory } from './events.js';
import { FakeClock } from './fake-clock.js';

type Input = Parameters<EventFactory['out']>[0];

/** Two calls run side by side; the first answers while the second still runs; then the reply. */
function parallelRun(f: EventFactory): Input[] {
  const usage = (output: number, costUsd: number) => ({
    inputTokens: 100,
    outputTokens: output,
    cacheReadTokens: 20,
    cacheWriteTokens: 5,
    costUsd,
  });
  return [
    { type: 'user_message', text: 'check both' },
    { type: 'run_started', provider: 'scripted', model: 'm' },
    { type: 'turn_started', turn: 1 },
    { type: 'intent_proposed', intent: f.intent('i1') },
    { type: 'intent_proposed', intent: f.intent('i2') },
    { type: 'usage', usage: usage(7, 0.01) },
    { type: 'model_final', stopReason: 'tool_intent' },
    { type: 'intent_approved', intentId: 'i1', scope: 'once', auto: true },
    { type: 'intent_approved', intentId: 'i2', scope: 'once', auto: true },
    { type: 'intent_started', intentId: 'i1' },
    { type: 'intent_started', intentId: 'i2' },
    { type: 'observation', observation: { intentId: 'i1', ok: true, content: 'one' } },
    { type: 'observation', observation: { intentId: 'i2', ok: true, content: 'two' } },
    { type: 'turn_started', turn: 2 },
    { type: 'text_delta', text: 'Both pass.' },
    { type: 'usage', usage: usage(3, 0.02) },
    { type: 'model_final', stopReason: 'stop' },
    { type: 'run_finished', reason: 'completed' },
  ];
}

describe('presenter: status and usage from the kernel', () => {
  it('shows after every event the status the kernel has, parallel calls included', () => {
    const f = new EventFactory();
    const presenter = new Presenter({ clock: new FakeClock(), post: () => undefined, kernel: () => f.state });
    for (const input of parallelRun(f)) {
      presenter.handle(f.out(input));
      assert.equal(presenter.snapshot().status, f.state.status, `after ${input.type}`);
    }
    assert.equal(presenter.snapshot().status, 'completed');
  });

  it('meters the usage and cost the kernel summed, live and when the log is loaded again', () => {
    const f = new EventFactory();
    const posts: HostMessage[] = [];
    const live = new Presenter({ clock: new FakeClock(), post: (m) => posts.push(m), kernel: () => f.state });
    const events = parallelRun(f).map((input) => {
      const out = f.out(input);
      live.handle(out);
      return out.kind === 'event' ? out.event : undefined;
    });
    const kernel = replay(events.filter((e) => e !== undefined));
    const loaded = new Presenter({ clock: new FakeClock(), post: () => undefined, kernel: () => kernel });
    loaded.load(events.filter((e) => e !== undefined));
    for (const meter of [live.snapshot().meter, loaded.snapshot().meter]) {
      assert.equal(meter.costUsd, kernel.usage.costUsd);
      assert.equal(meter.tokens.output, kernel.usage.outputTokens);
      assert.equal(meter.usedTokens, 125, 'the last turn’s input, cache included');
    }
    assert.equal(loaded.snapshot().status, kernel.status);
  });

  it('shows a run the log leaves live as idle and resumable, whatever the kernel says, until it resumes', () => {
    const f = new EventFactory();
    const events = parallelRun(f)
      .slice(0, 10)
      .map((input) => f.event(input));
    const presenter = new Presenter({ clock: new FakeClock(), post: () => undefined, kernel: () => f.state });
    presenter.load(events);
    assert.equal(f.state.status, 'executing');
    assert.equal(presenter.snapshot().status, 'idle');
    presenter.handle(
      f.out({
        type: 'context_folded',
        fromSeq: 1,
        toSeq: 2,
        steps: { first: 1, last: 1 },
        note: 'n',
        source: 'model',
        reason: 'requested',
        tokensBefore: 10,
        tokensAfter: 5,
      }),
    );
    assert.equal(presenter.snapshot().status, 'idle', 'a fold is no run');
    presenter.handle(f.out({ type: 'run_resumed' }));
    assert.equal(presenter.snapshot().status, f.state.status);
    assert.notEqual(presenter.snapshot().status, 'idle');
  });
});
