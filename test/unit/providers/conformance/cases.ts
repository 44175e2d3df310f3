// The conformance suite's vocabulary: a case is one stream a vendor's API (or a local server)
// sends, written here by hand from its published API reference and SDK types, with what Keel
// must make of it. Each case is served by a local HTTP server to the real SDK in three ways —
// whole (one write), as a burst (one write per event, no pause) and in 1–24-byte pieces — and
// must come out the same every time.
import assert from 'node:assert/strict';
import type { ModelError, ModelEvent, ModelProvider, Reasoning, Usage } from '../../../../src/kernel/index.js';
import type { Reply } from '../../../support/model-server.js';

type WireApi = 'anthropic' | 'chat' | 'responses';

interface ExpectedIntent {
  providerRef?: string;
  tool: string;
  input?: unknown;
  /** The call's JSON was not whole: the model is told, nothing runs. */
  inputError?: RegExp;
}

export interface Expected {
  /** The turn's text as the kernel keeps it (after the last retry). */
  text?: string;
  reasoningText?: string;
  /** The `reasoning` event (what is sent back); null: none. */
  reasoning?: Reasoning | null;
  intents?: ExpectedIntent[];
  usage?: Partial<Usage>;
  stop?: 'stop' | 'tool_intent' | 'length' | 'refusal';
  /** The turn ends in this error (after any retries). */
  error?: Partial<Pick<ModelError, 'kind' | 'retryable'>> & { message?: RegExp };
  /** Requests the server saw: 1 unless the turn was retried. */
  requests?: number;
}

export interface StreamCase {
  /** "<vendor>: <what it shows>". */
  name: string;
  api: WireApi;
  /** The model asked for (the table's rules and prices follow it). */
  model: string;
  /** The response body: server-sent events, or a JSON document with `json`. */
  body: string;
  /** A whole JSON answer to the streaming request (content-type application/json). */
  json?: boolean;
  expect: Expected;
}

/** Anthropic's server-sent events, one `event:` line and one `data:` line each. */
export function anthropicBody(events: Record<string, unknown>[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** Chat-completions chunks as `data:` lines, then `data: [DONE]` unless the stream is cut. */
export function chatBody(chunks: unknown[], done = true): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}

export type WriteMode = 'whole' | 'burst' | 'pieces';
export const WRITE_MODES: WriteMode[] = ['whole', 'burst', 'pieces'];

/** The reply serving a case's body in one write mode. Pieces are cut at seeded random 1–24-byte steps. */
export function replyFor(c: StreamCase, mode: WriteMode): Reply {
  const headers = c.json ? { 'content-type': 'application/json' } : undefined;
  const base = { type: 'stream' as const, body: c.body, ...(headers ? { headers } : {}) };
  if (mode === 'whole') return base;
  if (mode === 'burst') return { ...base, chunks: eventEnds(c.body) };
  return { ...base, chunks: randomCuts(Buffer.byteLength(c.body), seedOf(c.name)), pauseMs: 0 };
}

function eventEnds(body: string): number[] {
  const bytes = Buffer.from(body);
  const out: number[] = [];
  for (let i = bytes.indexOf('\n\n'); i !== -1; i = bytes.indexOf('\n\n', i + 2)) out.push(i + 2);
  return out;
}

export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function randomCuts(length: number, seed: number): number[] {
  let state = seed || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const cuts: number[] = [];
  for (let at = 1 + Math.floor(next() * 24); at < length; at += 1 + Math.floor(next() * 24)) cuts.push(at);
  return cuts;
}

export async function collect(provider: ModelProvider): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  const request = { system: 'You are a test.', messages: [{ role: 'user' as const, text: 'go' }], tools: [] };
  for await (const e of provider.stream(request, new AbortController().signal)) events.push(e);
  return events;
}

/** The events of the attempt that counts: everything after the last `retry`. */
function lastAttempt(events: ModelEvent[]): ModelEvent[] {
  const at = events.map((e) => e.type).lastIndexOf('retry');
  return events.slice(at + 1);
}

export function assertOutcome(events: ModelEvent[], expected: Expected, requests: number): void {
  const turn = lastAttempt(events);
  const text = turn.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
  const reasoningText = turn.map((e) => (e.type === 'reasoning_delta' ? e.text : '')).join('');
  for (const e of events) if (e.type === 'text_delta' || e.type === 'reasoning_delta') assert.equal(typeof e.text, 'string');
  if (expected.text !== undefined) assert.equal(text, expected.text, 'text');
  if (expected.reasoningText !== undefined) assert.equal(reasoningText, expected.reasoningText, 'reasoning text');
  if (expected.reasoning !== undefined) {
    const kept = turn.filter((e) => e.type === 'reasoning');
    assert.deepEqual(
      kept.map((e) => e.type === 'reasoning' && e.reasoning),
      expected.reasoning ? [expected.reasoning] : [],
      'reasoning kept',
    );
  }
  if (expected.intents) assertIntents(turn, expected.intents);
  if (expected.usage) {
    const usage = turn.filter((e): e is Extract<ModelEvent, { type: 'usage' }> => e.type === 'usage');
    assert.equal(usage.length, 1, 'one usage event');
    for (const [k, v] of Object.entries(expected.usage)) assert.equal(usage[0]!.usage[k as keyof Usage], v, `usage.${k}`);
  }
  const last = events.at(-1);
  if (expected.error) {
    assert.equal(last?.type, 'error', `ends in an error, got ${JSON.stringify(last)}`);
    const error = (last as Extract<ModelEvent, { type: 'error' }>).error;
    if (expected.error.kind) assert.equal(error.kind, expected.error.kind, error.message);
    if (expected.error.retryable !== undefined) assert.equal(error.retryable, expected.error.retryable, error.message);
    if (expected.error.message) assert.match(error.message, expected.error.message);
  } else {
    assert.deepEqual(last, { type: 'final', stopReason: expected.stop ?? 'stop' });
  }
  assert.equal(requests, expected.requests ?? 1, 'requests sent');
}

function assertIntents(turn: ModelEvent[], expected: ExpectedIntent[]): void {
  const intents = turn.filter((e): e is Extract<ModelEvent, { type: 'tool_intent' }> => e.type === 'tool_intent');
  assert.equal(intents.length, expected.length, `intents: ${JSON.stringify(intents)}`);
  expected.forEach((want, i) => {
    const got = intents[i]!;
    assert.equal(got.tool, want.tool);
    if (want.providerRef) assert.equal(got.providerRef, want.providerRef);
    if (want.input !== undefined) assert.deepEqual(got.input, want.input);
    if (want.inputError) assert.match(got.inputError ?? '', want.inputError);
    else assert.equal(got.inputError, undefined, got.inputError);
  });
}
