// Issue 34, problem 2: the infer step watches every model stream. A silence past the stall time
// tells the host (the activity line's notice); a sign of life clears it; a silence past the idle
// timeout abandons the stream (its request aborted) and ends the turn with a retryable error,
// keeping what was streamed; the user's Retry abandons the stalled stream and streams the turn
// again; a provider's own retry wait is not a stall; a call's streaming input is activity for the
// host. Time is moved by hand (injected timers), the provider is one that can go quiet.
import assert from 'node:assert/strict';
import { Registry, Runtime, type ModelEvent, type ModelProvider, type RuntimeOutput, type Timers } from '../../../src/kernel/index.js';

/** Timers that fire only when the test moves the clock. */
class ManualTimers implements Timers {
  now = 0;
  private queue: { at: number; fn: () => void; id: number }[] = [];
  private next = 0;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.next;
    this.queue.push({ at: this.now + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }
  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const due = this.queue[0];
      if (!due || due.at > until) break;
      this.queue.shift();
      this.now = due.at;
      due.fn();
      await settle();
    }
    this.now = until;
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

/**
 * A provider whose turns the test plays: each stream yields the events pushed to it and waits
 * (silent) until more come or it is aborted.
 */
class QuietProvider implements ModelProvider {
  readonly name = 'quiet';
  readonly model = 'quiet-1';
  readonly capabilities = { tools: true, vision: false, promptCaching: false, contextWindow: 100_000, maxOutputTokens: 4_000 };
  readonly signals: AbortSignal[] = [];
  private feed: ((e: ModelEvent) => void) | undefined;
  private pending: ModelEvent[] = [];

  /** The next events of the stream being read (or of the next one, if none is read yet). */
  push(...events: ModelEvent[]): void {
    this.pending.push(...events);
    this.feed?.(this.pending.shift()!);
  }

  stream(_request: unknown, signal: AbortSignal): AsyncIterable<ModelEvent> {
    this.signals.push(signal);
    const self = this;
    return (async function* () {
      for (;;) {
        const event =
          self.pending.shift() ??
          (await new Promise<ModelEvent | undefined>((resolve) => {
            self.feed = resolve;
            signal.addEventListener('abort', () => resolve(undefined), { once: true });
          }));
        self.feed = undefined;
        if (!event) return;
        yield event;
        if (event.type === 'final' || event.type === 'error') return;
      }
    })();
  }
}

function setup() {
  const timers = new ManualTimers();
  const provider = new QuietProvider();
  const runtime = new Runtime({
    provider,
    registry: new Registry(),
    timers,
    now: () => timers.now,
    streamWatch: { stallMs: 20_000, idleTimeoutMs: 120_000 },
  });
  const outputs: RuntimeOutput[] = [];
  runtime.subscribe((o) => outputs.push(o));
  const stalls = () => outputs.filter((o) => o.kind === 'activity' && o.activity.type === 'stalled');
  const events = (type: string) => runtime.getEvents().filter((e) => e.type === type);
  return { timers, provider, runtime, outputs, stalls, events };
}

describe('kernel: the stream watch (issue 34)', () => {
  it('tells the host when the stream goes quiet, and not before', async () => {
    const { timers, provider, runtime, stalls } = setup();
    const done = runtime.run('write it');
    provider.push({ type: 'text_delta', text: 'Writing ' });
    await settle();
    await timers.advance(19_000);
    assert.equal(stalls().length, 0, 'quiet for 19 s: no notice yet');
    provider.push({ type: 'text_delta', text: 'the file' });
    await settle();
    await timers.advance(19_000);
    assert.equal(stalls().length, 0, 'the text reset the watch');
    await timers.advance(1_000);
    assert.deepEqual(
      stalls().map((o) => o.kind === 'activity' && o.activity),
      [{ type: 'stalled', silentMs: 20_000 }],
    );
    provider.push({ type: 'final', stopReason: 'stop' });
    await done;
    assert.equal(runtime.getState().status, 'completed');
  });

  it('gives up a stream silent past the idle timeout: its request aborted, a retryable error, the text kept', async () => {
    const { timers, provider, runtime, events } = setup();
    const done = runtime.run('write it');
    provider.push({ type: 'text_delta', text: 'Half an ans' });
    await settle();
    await timers.advance(120_000);
    await done;
    assert.equal(provider.signals[0]!.aborted, true, 'the request was aborted');
    const failed = events('run_failed')[0];
    assert.equal(failed?.type === 'run_failed' && failed.error.kind, 'network');
    assert.match(failed?.type === 'run_failed' ? failed.error.message : '', /sent nothing for 120 s/);
    const error = events('model_error')[0];
    assert.equal(error?.type === 'model_error' && error.error.retryable, true, 'Retry may help');
    const said = runtime.getState().messages.find((m) => m.type === 'assistant');
    assert.equal(said?.type === 'assistant' && said.text, 'Half an ans', 'what streamed is kept');
  });

  it("the user's Retry abandons the stalled stream and streams the turn again", async () => {
    const { timers, provider, runtime, events } = setup();
    const done = runtime.run('write it');
    provider.push({ type: 'text_delta', text: 'Stuck' });
    await settle();
    await timers.advance(25_000);
    assert.equal(runtime.retryStalledTurn(), true);
    await settle();
    assert.equal(provider.signals[0]!.aborted, true, 'the stalled request was aborted');
    assert.equal(provider.signals.length, 2, 'the turn was asked again');
    assert.equal(events('turn_retry').length, 1);
    provider.push({ type: 'text_delta', text: 'Done.' }, { type: 'final', stopReason: 'stop' });
    await done;
    assert.equal(runtime.getState().status, 'completed');
    assert.equal(runtime.retryStalledTurn(), false, 'nothing to retry once the run is over');
  });

  it("a provider's own retry wait is not a stall", async () => {
    const { timers, provider, runtime, stalls } = setup();
    const done = runtime.run('write it');
    const error = { kind: 'overloaded' as const, message: 'Overloaded', retryable: true };
    provider.push({ type: 'retry', attempt: 1, delayMs: 30_000, error });
    await settle();
    await timers.advance(45_000);
    assert.equal(stalls().length, 0, 'waiting out the retry delay');
    await timers.advance(6_000);
    assert.equal(stalls().length, 1, 'the delay and the stall time passed');
    provider.push({ type: 'final', stopReason: 'stop' });
    await done;
  });

  it("hands a call's streaming input to the host as activity, never to the log", async () => {
    const { provider, runtime, outputs } = setup();
    const done = runtime.run('write it');
    provider.push(
      { type: 'tool_input_progress', call: 0, tool: 'write_file', bytes: 3100, path: 'src/app.ts' },
      { type: 'final', stopReason: 'stop' },
    );
    await done;
    assert.deepEqual(
      outputs.flatMap((o) => (o.kind === 'activity' ? [o.activity] : [])),
      [{ type: 'tool_input', call: 0, tool: 'write_file', bytes: 3100, path: 'src/app.ts' }],
    );
    assert.ok(!runtime.getEvents().some((e) => (e.type as string) === 'tool_input_progress'));
  });
});
