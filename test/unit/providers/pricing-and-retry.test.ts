// The pure parts: price lookup by model id, retry delays, retry-after parsing, and the
// classification of HTTP failures.
import assert from 'node:assert/strict';
import { classifyApiFailure, parseRetryAfter, StreamErrorEvent } from '../../../src/providers/errors.js';
import { capabilitiesFor, exactModelIds, priceOf, withCost } from '../../../src/providers/models.js';
import { abortableSleep, DEFAULT_RETRY, retryDelay } from '../../../src/providers/retry.js';
import { FakeClock } from '../presenter/fake-clock.js';
import { DEFAULT_MODELS, pickerModels, VENDORS } from '../../../src/providers/index.js';

const headers = (h: Record<string, string>) => new Headers(h);
const vendor = { label: 'Anthropic', keyEnvVar: 'ANTHROPIC_API_KEY' };

describe('providers: pricing', () => {
  it('finds a price by family, with or without a date suffix or a vendor prefix', () => {
    assert.equal(priceOf('claude-sonnet-4-5-20250929')?.input, 3);
    assert.equal(priceOf('anthropic/claude-sonnet-4.5')?.output, 15);
    assert.equal(priceOf('claude-opus-4-1-20250805')?.input, 15);
    assert.equal(priceOf('claude-opus-4-5')?.input, 5);
    assert.equal(priceOf('gpt-4o-mini-2024-07-18')?.input, 0.15, 'the longest family wins');
    assert.equal(priceOf('gpt-4o-2024-08-06')?.input, 2.5);
    assert.equal(priceOf('gpt-4.1')?.input, 2);
    assert.equal(priceOf('gpt-5-mini')?.output, 2);
  });

  it('prices the default models, so a user on the defaults sees the cost (a local server’s model has none)', () => {
    for (const v of VENDORS)
      assert.equal(priceOf(DEFAULT_MODELS[v.id]) !== undefined, !('defaultBaseUrl' in v) && !('unpriced' in v), v.id);
    assert.deepEqual(priceOf('claude-sonnet-5-5'), { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 });
    assert.equal(priceOf('claude-sonnet-4-6')?.input, 3);
  });

  it('every model the table names, and so every model a picker offers, has its list price', () => {
    const ids = exactModelIds();
    assert.ok(ids.length >= 25);
    for (const id of ids) assert.ok(priceOf(id), `${id} is in the table without a price`);
    // Or its vendor says why it has none (Vertex: the region, not the id, sets the price).
    for (const v of VENDORS) for (const m of pickerModels(v.id)) assert.ok(priceOf(m.id) || 'unpriced' in v, `${v.id}: ${m.id}`);
  });

  it("reads Bedrock's and Vertex's Claude ids as their families, priced by the endpoint the id names", () => {
    const list = priceOf('claude-sonnet-4-5')!;
    // A global inference profile costs the list price; a geography's profile or a base id, 10% more (Claude 4.5 on).
    assert.deepEqual(priceOf('global.anthropic.claude-sonnet-4-5-20250929-v1:0'), list);
    assert.equal(priceOf('us.anthropic.claude-sonnet-4-5-20250929-v1:0')?.input, 3.3);
    assert.equal(priceOf('anthropic.claude-haiku-4-5-20251001-v1:0')?.output, 5.5);
    assert.equal(
      priceOf('arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-haiku-4-5-20251001-v1:0')?.input,
      1.1,
    );
    // Before Claude 4.5 the endpoints cost the same.
    assert.equal(priceOf('us.anthropic.claude-opus-4-1-20250805-v1:0')?.input, 15);
    assert.equal(priceOf('claude-sonnet-4@20250514')?.input, 3);
    // A Vertex id does not say its endpoint: no price rather than a guess.
    assert.equal(priceOf('claude-sonnet-4-5@20250929'), undefined);
    for (const cloud of ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5@20250929'])
      assert.deepEqual(capabilitiesFor(cloud), capabilitiesFor('claude-sonnet-4-5-20250929'), cloud);
  });

  it('does not guess: a variant or an unknown model has no price', () => {
    assert.equal(priceOf('gpt-5-chat-latest'), undefined);
    assert.equal(priceOf('gpt-5-2-codex'), undefined);
    assert.equal(priceOf('llama3.1:8b'), undefined);
    assert.equal(withCost('qwen3-coder', { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }).costUsd, undefined);
  });

  it('costs every token bucket at its own rate', () => {
    const u = withCost('claude-sonnet-4-5', { inputTokens: 1e6, outputTokens: 1e6, cacheReadTokens: 1e6, cacheWriteTokens: 1e6 });
    assert.equal(u.costUsd, 3 + 15 + 0.3 + 3.75);
  });

  it('declares capabilities per model, overridable for local models', () => {
    assert.equal(capabilitiesFor('claude-haiku-4-5').contextWindow, 200_000);
    assert.equal(capabilitiesFor('gpt-4.1').contextWindow, 1_047_576);
    assert.equal(capabilitiesFor('llama3.1:8b').vision, false);
    assert.equal(capabilitiesFor('llama3.1:8b', { contextWindow: 131_072, vision: true }).contextWindow, 131_072);
    assert.equal(capabilitiesFor('gpt-4o', { maxOutputTokens: 1000 }).maxOutputTokens, 1000);
  });
});

describe('providers: retry policy', () => {
  const o = { ...DEFAULT_RETRY, random: () => 0.5 };
  const error = { kind: 'overloaded' as const, message: 'x', retryable: true };

  it('backs off exponentially with jitter, capped', () => {
    const delays = [1, 2, 3, 4].map((a) => retryDelay(error, a, { ...o, maxAttempts: 10 }));
    assert.deepEqual(delays, [750, 1500, 3000, 6000]);
    assert.equal(retryDelay(error, 9, { ...o, maxAttempts: 10 }), 22_500, 'capped at maxDelayMs (30 s) before jitter');
    const spread = new Set([0, 0.3, 0.99].map((r) => retryDelay(error, 2, { ...o, random: () => r })));
    assert.equal(spread.size, 3, 'jitter spreads clients apart');
  });

  it('honours retry-after exactly, and not beyond the cap', () => {
    assert.equal(retryDelay({ ...error, retryAfterMs: 8000 }, 1, o), 8000);
    assert.equal(retryDelay({ ...error, retryAfterMs: 3_600_000 }, 1, o), undefined);
  });

  it('never retries what retrying cannot fix, nor past the last attempt', () => {
    assert.equal(retryDelay({ ...error, retryable: false }, 1, o), undefined);
    assert.equal(retryDelay(error, o.maxAttempts, o), undefined);
  });

  it('the default sleep waits the whole delay, and no longer than an abort', async () => {
    const clock = new FakeClock();
    let woke = false;
    const wait = abortableSleep(1000, new AbortController().signal, clock).then(() => (woke = true));
    clock.advance(999);
    await Promise.resolve();
    assert.equal(woke, false, 'still waiting 1 ms before the end');
    clock.advance(1);
    await wait;
    const controller = new AbortController();
    const aborted = abortableSleep(30_000, controller.signal, clock);
    controller.abort();
    await aborted; // resolves with the clock standing still
    assert.equal(clock.pendingTimers, 0, 'the aborted wait leaves no timer behind');
    assert.equal(DEFAULT_RETRY.sleep, abortableSleep);
  });

  it('reads retry-after-ms, retry-after in seconds, and retry-after as a date', () => {
    assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '1500', 'retry-after': '9' })), 1500);
    assert.equal(parseRetryAfter(headers({ 'retry-after': '2' })), 2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now), 5000);
    assert.equal(parseRetryAfter(headers({})), undefined);
  });
});

describe('providers: error classification', () => {
  const kind = (f: Parameters<typeof classifyApiFailure>[0]) => {
    const e = classifyApiFailure(f, vendor);
    return [e.kind, e.retryable];
  };

  it('never retries a 4xx but 429 and 408; an error event’s numeric code is the status it names', () => {
    assert.deepEqual(kind({ status: 409, message: 'conflict' }), ['bad_request', false]);
    assert.deepEqual(kind({ status: 422, message: 'extra inputs are not permitted' }), ['bad_request', false]);
    assert.deepEqual(kind(new StreamErrorEvent({ code: 400, message: 'Provider returned error' }).failure), ['bad_request', false]);
    assert.deepEqual(kind(new StreamErrorEvent({ code: 429, message: 'slow down' }).failure), ['rate_limited', true]);
    assert.deepEqual(kind(new StreamErrorEvent({ code: 503, message: 'busy' }).failure), ['overloaded', true]);
    assert.deepEqual(kind(new StreamErrorEvent({ type: 'invalid_request_error', message: 'bad tool id' }).failure), ['bad_request', false]);
    assert.deepEqual(kind(new StreamErrorEvent({ code: 'server_error', message: 'oops' }).failure), ['unknown', true]);
  });

  it('sorts HTTP failures into the kernel kinds', () => {
    assert.deepEqual(kind({ status: 401, message: 'bad key' }), ['auth', false]);
    assert.deepEqual(kind({ status: 403, type: 'permission_error', message: 'no' }), ['auth', false]);
    assert.deepEqual(kind({ status: 429, type: 'rate_limit_error', message: 'slow down' }), ['rate_limited', true]);
    assert.deepEqual(kind({ status: 429, code: 'insufficient_quota', message: 'x' }), ['rate_limited', false]);
    assert.deepEqual(kind({ status: 402, message: 'pay' }), ['rate_limited', false]);
    assert.deepEqual(kind({ status: 529, type: 'overloaded_error', message: 'Overloaded' }), ['overloaded', true]);
    assert.deepEqual(kind({ type: 'overloaded_error', message: 'Overloaded' }), ['overloaded', true]);
    assert.deepEqual(kind({ status: 413, type: 'request_too_large', message: 'big' }), ['context_overflow', false]);
    assert.deepEqual(kind({ status: 400, message: 'prompt is too long: 3 > 2' }), ['context_overflow', false]);
    assert.deepEqual(kind({ status: 400, message: 'messages: field required' }), ['bad_request', false]);
    assert.deepEqual(kind({ status: 404, message: 'model not found' }), ['bad_request', false]);
    assert.deepEqual(kind({ status: 500, message: 'oops' }), ['unknown', true]);
    assert.deepEqual(kind({ status: 408, message: 'timeout' }), ['network', true]);
  });

  it('says what happened in words a user knows: no SDK placeholder, no "Rate limited by The …"', () => {
    const server = { ...vendor, label: 'The model server at http://127.0.0.1:9/v1' };
    const bare = classifyApiFailure({ status: 502, message: '502 status code (no body)' }, server).message;
    assert.equal(
      bare,
      'The model server at http://127.0.0.1:9/v1 had a problem on its side (502): it gave no reason (HTTP 502 Bad Gateway)',
    );
    const limited = classifyApiFailure({ status: 429, message: 'slow down' }, server).message;
    assert.equal(limited, 'The model server at http://127.0.0.1:9/v1 is turning requests away for now (too many requests): slow down');
  });
});
