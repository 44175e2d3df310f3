// What streaming a turn through each real SDK gives the kernel: text as it comes, tool calls
// assembled from fragments (whatever the byte boundaries), several calls in order, usage
// and the stop reason at the end.
import assert from 'node:assert/strict';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { VENDORS, eventBoundaries, intentsOf, run, textOf, typesOf } from './vendors.js';

/** A JSON text full of escapes and multi-byte characters, cut every 3 code points. */
const TRICKY_JSON = String.raw`{"path":"src/caf\u00e9/🦀 crab.ts","text":"line \"one\"\nback\\slash\ttab é 日本語 🦀 end","n":-12.5e1,"ok":true}`;
const TRICKY_INPUT = JSON.parse(TRICKY_JSON);
const TRICKY_FRAGMENTS = (() => {
  const points = Array.from(TRICKY_JSON);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += 3) out.push(points.slice(i, i + 3).join(''));
  return out;
})();

/** Byte offsets that fall inside a multi-byte UTF-8 character (before each continuation byte). */
function insideMultiByteChars(body: string): number[] {
  const bytes = Buffer.from(body);
  const cuts: number[] = [];
  for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) === 0x80) cuts.push(i);
  return cuts;
}

for (const vendor of VENDORS) {
  describe(`${vendor.name} provider: streaming`, function () {
    this.timeout(10_000);
    let server: ModelServer | undefined;
    afterEach(async () => server?.close());

    async function serve(turn: WireTurn, extra: { chunks?: number[]; pauseMs?: number } = {}) {
      server = await startModelServer([{ type: 'stream', body: vendor.stream(turn), ...extra }]);
      return vendor.provider(server);
    }

    it('streams text as deltas and ends with usage and a stop', async () => {
      const turn: WireTurn = { text: ['Hel', 'lo, ', 'world.'], usage: { input: 1200, output: 30 } };
      // One event per network read, spaced out as a model streaming at its own pace.
      const events = await run(await serve(turn, { chunks: eventBoundaries(vendor.stream(turn)), pauseMs: 60 }));
      assert.deepEqual(typesOf(events), ['text_delta', 'text_delta', 'text_delta', 'usage', 'final']);
      assert.equal(textOf(events), 'Hello, world.');
      assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'stop' });
      const usage = events.find((e) => e.type === 'usage');
      assert.equal(usage?.type === 'usage' && usage.usage.inputTokens, 1200);
      assert.equal(usage?.type === 'usage' && usage.usage.outputTokens, 30);
    });

    it('joins the text deltas of a network read into one delta, the text exact', async () => {
      // 500 events written at once: they arrive in a few reads (the socket's buffer size).
      const pieces = Array.from({ length: 500 }, (_, i) => `${i} é🦀 "q" `);
      const events = await run(await serve({ text: pieces }));
      const deltas = typesOf(events).filter((t) => t === 'text_delta').length;
      assert.ok(deltas >= 1 && deltas <= 5, `${deltas} text deltas for 500 events in one write`);
      assert.deepEqual(typesOf(events).slice(deltas), ['usage', 'final']);
      assert.equal(textOf(events), pieces.join(''));
    });

    it('assembles a tool call split across many fragments, inside escapes and inside UTF-8 characters', async () => {
      assert.ok(TRICKY_FRAGMENTS.length >= 20);
      assert.ok(
        TRICKY_FRAGMENTS.some((f) => /(^|[^\\])(\\\\)*\\$/.test(f)),
        'some fragment ends inside an escape',
      );
      const turn: WireTurn = { text: ['Reading.'], toolCalls: [{ id: 'call_tricky', name: 'read_note', fragments: TRICKY_FRAGMENTS }] };
      const cuts = insideMultiByteChars(vendor.stream(turn));
      assert.ok(cuts.length >= 10, 'the body is cut inside multi-byte characters');
      const events = await run(await serve(turn, { chunks: cuts, pauseMs: 1 }));
      const [intent, ...more] = intentsOf(events);
      assert.equal(more.length, 0);
      assert.deepEqual(intent, { type: 'tool_intent', providerRef: 'call_tricky', tool: 'read_note', input: TRICKY_INPUT });
      assert.equal(textOf(events), 'Reading.');
      assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'tool_intent' });
    });

    // Issue 34, problem 2: a big call's input takes as long as the model needs to write it; people
    // see it grow (bytes so far, the file once its path is whole), each read giving its latest.
    it('says how a tool call grows while its input streams: its bytes, and its file once the path is whole', async () => {
      const json = JSON.stringify({ path: 'src/app.ts', content: 'export const x = "é";\n'.repeat(150) });
      const fragments = Array.from({ length: Math.ceil(json.length / 40) }, (_, i) => json.slice(i * 40, i * 40 + 40));
      const turn: WireTurn = { text: ['Writing it.'], toolCalls: [{ id: 'call_w', name: 'write_file', fragments }] };
      const events = await run(await serve(turn, { chunks: eventBoundaries(vendor.stream(turn)), pauseMs: 1 }));
      const progress = events.filter((e): e is Extract<ModelEvent, { type: 'tool_input_progress' }> => e.type === 'tool_input_progress');
      assert.ok(progress.length >= fragments.length / 2, `${progress.length} progress events for ${fragments.length} fragments`);
      assert.ok(
        progress.every((p, i) => p.tool === 'write_file' && p.call === 0 && (i === 0 || p.bytes > progress[i - 1]!.bytes)),
        'one call, growing',
      );
      assert.equal(progress.at(-1)!.bytes, Buffer.byteLength(json), 'the bytes of its whole input');
      assert.equal(progress[0]!.path, undefined, 'no path before its string is whole');
      assert.equal(progress.at(-1)!.path, 'src/app.ts');
      assert.ok(typesOf(events).lastIndexOf('tool_input_progress') < typesOf(events).indexOf('tool_intent'), 'all before the call itself');
      assert.deepEqual(intentsOf(events)[0]?.input, JSON.parse(json));
    });

    it('keeps two tool calls of one turn in order, each under its own call id', async () => {
      const events = await run(
        await serve({
          toolCalls: [
            { id: 'call_a', name: 'read_note', input: { path: 'a.txt' } },
            { id: 'call_b', name: 'write_note', input: { path: 'b.txt', text: 'x'.repeat(50) } },
          ],
        }),
      );
      assert.deepEqual(
        intentsOf(events).map((i) => [i.providerRef, i.tool, i.input]),
        [
          ['call_a', 'read_note', { path: 'a.txt' }],
          ['call_b', 'write_note', { path: 'b.txt', text: 'x'.repeat(50) }],
        ],
      );
      assert.deepEqual(typesOf(events).slice(-4), ['tool_intent', 'tool_intent', 'usage', 'final']);
    });

    it('releases tool intents only at the end of the turn, after all the text', async () => {
      const events = await run(await serve({ text: ['a', 'b'], toolCalls: [{ name: 'read_note', input: { path: 'p' } }] }));
      const firstIntent = typesOf(events).indexOf('tool_intent');
      assert.ok(firstIntent > typesOf(events).lastIndexOf('text_delta'));
    });

    it('maps the stop reasons: length and refusal', async () => {
      const length = await run(await serve({ text: ['cut o'], stop: 'length' }));
      assert.deepEqual(length.at(-1), { type: 'final', stopReason: 'length' });
      await server?.close();
      const refusal = await run(await serve({ text: ['I cannot help with that.'], stop: 'refusal' }));
      assert.deepEqual(refusal.at(-1), { type: 'final', stopReason: 'refusal' });
    });

    it('a tool call cut off by the output limit is an intent that says so, with no input to run', async () => {
      const events = await run(
        await serve({ toolCalls: [{ name: 'write_note', fragments: ['{"path":"a.txt","te', 'xt":"hal'] }], stop: 'length' }),
      );
      const [intent, ...more] = intentsOf(events);
      assert.equal(more.length, 0);
      assert.equal(intent?.input, null);
      assert.match(intent?.inputError ?? '', /output token limit/);
      assert.ok(!typesOf(events).includes('error') && !typesOf(events).includes('retry'));
      assert.equal(server?.requests.length, 1);
    });

    it('invalid tool-call JSON in a finished turn is an intent with the parse error, not a retry', async () => {
      const events = await run(
        await serve({
          text: ['Writing.'],
          toolCalls: [{ id: 'call_bad', name: 'write_note', fragments: ['{"path":"a.txt",', '"text":"x",}'] }],
        }),
      );
      const [intent, ...more] = intentsOf(events);
      assert.equal(more.length, 0);
      assert.equal(intent?.providerRef, 'call_bad');
      assert.equal(intent?.tool, 'write_note');
      assert.equal(intent?.input, null);
      assert.match(intent?.inputError ?? '', /not valid JSON \(.+\)/);
      assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'tool_intent' });
      assert.ok(!typesOf(events).includes('retry'));
      assert.equal(server?.requests.length, 1);
    });

    it('prices known models and leaves unknown ones without a cost', async () => {
      const turn: WireTurn = { text: ['ok'], usage: { input: 1_000_000, output: 0 } };
      const known = await run(await serve(turn));
      const cost = known.find((e) => e.type === 'usage');
      assert.ok(cost?.type === 'usage' && cost.usage.costUsd !== undefined && cost.usage.costUsd > 0);
      await server?.close();
      server = await startModelServer([{ type: 'stream', body: vendor.stream(turn) }]);
      const unknown = await run(vendor.provider(server, { model: 'my-local-model' }));
      const none = unknown.find((e) => e.type === 'usage');
      assert.ok(none?.type === 'usage' && none.usage.costUsd === undefined && none.usage.inputTokens === 1_000_000);
    });
  });
}
