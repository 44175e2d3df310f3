// Failures through each real SDK: classified, retried when it helps (visibly, with a
// `retry` event before the turn streams again), never retried when it cannot help, and
// never mistaken for a finished turn.
import assert from 'node:assert/strict';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { abortableSleep } from '../../../src/providers/retry.js';
import { startModelServer, type ModelServer, type Reply } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { FakeClock } from '../presenter/fake-clock.js';
import { VENDORS, intentsOf, request, run, textAfterLastRetry, typesOf } from './vendors.js';

const TURN: WireTurn = { text: ['All ', 'good.'], toolCalls: [{ id: 'call_1', name: 'read_note', input: { path: 'a.txt' } }] };

const errorOf = (events: ModelEvent[]) => {
  const last = events.at(-1);
  assert.equal(last?.type, 'error', `expected the stream to end with an error, got ${JSON.stringify(last)}`);
  return (last as Extract<ModelEvent, { type: 'error' }>).error;
};

for (const vendor of VENDORS) {
  describe(`${vendor.name} provider: failures and retries`, function () {
    this.timeout(10_000);
    let server: ModelServer | undefined;
    afterEach(async () => server?.close());
    const ok = (): Reply => ({ type: 'stream', body: vendor.stream(TURN) });
    const start = async (replies: Reply[]) => (server = await startModelServer(replies));

    it('honours retry-after on a 429, announces the retry, then succeeds', async () => {
      await start([vendor.errorReply('rate_limit', { 'retry-after': '1' }), ok()]);
      // The wait is asked of the injected sleep; that the default sleep really waits is tested
      // with a hand-moved clock (pricing-and-retry.test.ts).
      const waits: number[] = [];
      const sleep = async (ms: number) => void waits.push(ms);
      const events = await run(vendor.provider(server!, { retry: { maxAttempts: 3, sleep } }));
      const retry = events[0];
      assert.equal(retry?.type, 'retry');
      assert.ok(retry?.type === 'retry' && retry.delayMs === 1000 && retry.attempt === 1 && retry.error.kind === 'rate_limited');
      assert.deepEqual(waits, [1000]);
      assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'tool_intent' });
      assert.equal(server!.requests.length, 2);
    });

    it('retries an overloaded API with backoff', async () => {
      await start([vendor.errorReply('overloaded'), vendor.errorReply('overloaded'), ok()]);
      const events = await run(vendor.provider(server!));
      assert.deepEqual(typesOf(events).slice(0, 2), ['retry', 'retry']);
      for (const e of events.slice(0, 2)) assert.ok(e.type === 'retry' && e.error.kind === 'overloaded' && e.error.retryable);
      assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'tool_intent' });
    });

    it('gives up after the last attempt with the classified error', async () => {
      await start([vendor.errorReply('server'), vendor.errorReply('server'), vendor.errorReply('server')]);
      const events = await run(vendor.provider(server!));
      assert.deepEqual(typesOf(events), ['retry', 'retry', 'error']);
      assert.match(errorOf(events).message, /gave up after 3 attempts/);
      assert.equal(server!.requests.length, 3);
    });

    it('does not retry a rejected API key, and says which setting fixes it', async () => {
      await start([vendor.errorReply('auth'), ok()]);
      const events = await run(vendor.provider(server!));
      const error = errorOf(events);
      assert.equal(events.length, 1);
      assert.equal(error.kind, 'auth');
      assert.equal(error.retryable, false);
      assert.equal(error.status, 401);
      assert.match(error.message, /rejected the API key \(401\)/);
      assert.ok(error.message.includes('“Keel: Set API Key” (VS Code)'), error.message);
      // The CLI has no command palette: the variable is said as the way to set it there.
      assert.ok(error.message.includes(`Set the ${vendor.keyEnvVar} environment variable (keel)`), error.message);
      assert.equal(server!.requests.length, 1);
    });

    it('does not retry a 429 that reports an exhausted quota', async () => {
      await start([vendor.errorReply('quota', { 'retry-after': '1' }), ok()]);
      const error = errorOf(await run(vendor.provider(server!)));
      assert.equal(error.kind, 'rate_limited');
      assert.equal(error.retryable, false);
      assert.match(error.message, /quota|billing/);
      assert.equal(server!.requests.length, 1);
    });

    it('reports a prompt that is too long as context_overflow', async () => {
      await start([vendor.errorReply('context'), ok()]);
      const error = errorOf(await run(vendor.provider(server!)));
      assert.equal(error.kind, 'context_overflow');
      assert.equal(error.retryable, false);
      assert.equal(server!.requests.length, 1);
    });

    it('an error event mid-stream is a failure: the turn is announced void and streamed again', async () => {
      await start([{ type: 'stream', body: vendor.streamThenError(TURN) }, ok()]);
      const events = await run(vendor.provider(server!));
      const retryAt = typesOf(events).indexOf('retry');
      assert.ok(retryAt > 0, 'some text streamed before the failure');
      assert.ok(!typesOf(events.slice(0, retryAt)).includes('tool_intent'));
      assert.equal(textAfterLastRetry(events), 'All good.');
      assert.equal(intentsOf(events).length, 1);
      assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'tool_intent' });
    });

    it('a stream that ends without its stop marker is never taken for a finished turn', async () => {
      await start([
        { type: 'stream', body: vendor.truncated(TURN) },
        { type: 'stream', body: vendor.truncated(TURN) },
      ]);
      const events = await run(vendor.provider(server!, { retry: { maxAttempts: 2, baseDelayMs: 1 } }));
      assert.equal(intentsOf(events).length, 0);
      assert.ok(!typesOf(events).includes('final'));
      assert.equal(typesOf(events).filter((t) => t === 'retry').length, 1);
      assert.equal(errorOf(events).kind, 'network');
    });

    it('cancelling mid-stream ends the turn as cancelled', async () => {
      const whole = vendor.stream({ text: ['first ', 'second'] });
      // The first delta arrives, then the server goes silent with the connection open: the
      // stream can only end because the abort ended it (mocha's timeout is the hang guard).
      await start([{ type: 'stream', body: whole.slice(0, whole.indexOf('second') - 20), stall: true }]);
      const controller = new AbortController();
      const events: ModelEvent[] = [];
      for await (const e of vendor.provider(server!).stream(request(), controller.signal)) {
        events.push(e);
        if (e.type === 'text_delta') controller.abort();
      }
      assert.deepEqual(typesOf(events), ['text_delta', 'error']);
      assert.equal(errorOf(events).kind, 'cancelled');
    });

    it('a consumer that stops reading closes the connection', async () => {
      const whole = vendor.stream({ text: ['first ', 'second'] });
      await start([{ type: 'stream', body: whole.slice(0, whole.indexOf('second') - 20), stall: true }]);
      for await (const e of vendor.provider(server!).stream(request(), new AbortController().signal)) if (e.type === 'text_delta') break;
      // The server never ends the stalled response: it closes only because the client did.
      await server!.requests[0]!.closed;
    });

    it('cancelling while waiting to retry ends the wait, without another request', async () => {
      await start([vendor.errorReply('rate_limit', { 'retry-after': '30' }), ok()]);
      const controller = new AbortController();
      const waits: number[] = [];
      // The real sleep on a clock that never moves: only the abort can end the wait.
      const sleep = (ms: number, signal: AbortSignal) => {
        waits.push(ms);
        return abortableSleep(ms, signal, new FakeClock());
      };
      const events: ModelEvent[] = [];
      for await (const e of vendor.provider(server!, { retry: { maxAttempts: 3, sleep } }).stream(request(), controller.signal)) {
        events.push(e);
        // Aborted once the provider is waiting (it starts the wait when asked for the next event).
        if (e.type === 'retry') setImmediate(() => controller.abort());
      }
      assert.deepEqual(waits, [30_000]);
      assert.deepEqual(typesOf(events), ['retry', 'error']);
      assert.equal(errorOf(events).kind, 'cancelled');
      assert.equal(server!.requests.length, 1);
    });

    it('does not wait for a retry-after beyond the cap: the user is told instead', async () => {
      await start([vendor.errorReply('rate_limit', { 'retry-after': '3600' }), ok()]);
      const error = errorOf(await run(vendor.provider(server!)));
      assert.equal(error.kind, 'rate_limited');
      assert.equal(error.retryAfterMs, 3_600_000);
      assert.equal(server!.requests.length, 1);
    });

    it('without an API key and without a base URL: an auth error event, no request, no throw', async () => {
      const saved = process.env[vendor.keyEnvVar];
      delete process.env[vendor.keyEnvVar];
      try {
        const { createAnthropicProvider } = await import('../../../src/providers/anthropic.js');
        const { createOpenAIProvider } = await import('../../../src/providers/openai.js');
        const p =
          vendor.name === 'anthropic' ? createAnthropicProvider({ model: 'claude-haiku-4-5' }) : createOpenAIProvider({ model: 'gpt-4o' });
        const events = await run(p);
        assert.equal(events.length, 1);
        const error = errorOf(events);
        assert.equal(error.kind, 'auth');
        assert.ok(error.message.includes(vendor.keyEnvVar));
      } finally {
        if (saved !== undefined) process.env[vendor.keyEnvVar] = saved;
      }
    });

    it('with a base URL an empty key is fine (local servers need none)', async () => {
      await start([ok()]);
      const events = await run(vendor.provider(server!, { apiKey: '' }));
      assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'tool_intent' });
    });
  });
}
