// The connection reset (socket destroyed) at many byte offsets of a stream with text and two
// tool calls. Whatever the offset, the turn is either retried cleanly (a `retry` event, then
// the whole turn again) or fails cleanly (an error) — never an intent with partial input,
// never a call proposed twice, never a reset taken for a finished turn.
import assert from 'node:assert/strict';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { VENDORS, intentsOf, run, textAfterLastRetry, typesOf } from './vendors.js';

const TURN: WireTurn = {
  text: ['Let me ', 'read both ', 'files — ', 'ünïcödé 🦀.'],
  toolCalls: [
    { id: 'call_one', name: 'read_note', input: { path: 'one/ä.txt', note: 'quote " and \\ slash' } },
    { id: 'call_two', name: 'read_note', input: { path: 'two/🦀.txt', lines: [1, 2, 3] } },
  ],
  fragmentChars: 5,
};
const EXPECTED = [
  ['call_one', { path: 'one/ä.txt', note: 'quote " and \\ slash' }],
  ['call_two', { path: 'two/🦀.txt', lines: [1, 2, 3] }],
];

/** About 50 offsets spread over the body, plus the first bytes. */
function offsets(length: number): number[] {
  const step = Math.max(1, Math.floor(length / 50));
  const out = [0, 1, 2, 7];
  for (let o = 11; o < length; o += step) out.push(o);
  out.push(length - 1);
  return [...new Set(out)].filter((o) => o < length);
}

for (const vendor of VENDORS) {
  describe(`${vendor.name} provider: connection cut mid-stream`, function () {
    this.timeout(60_000);
    const body = vendor.stream(TURN);
    const length = Buffer.byteLength(body);
    // The byte just past the event that proves the turn whole: message_stop / finish_reason.
    const marker = vendor.name === 'anthropic' ? '"type":"message_stop"' : '"finish_reason":"tool_calls"';
    const stopEnd = Buffer.byteLength(body.slice(0, body.indexOf('\n\n', body.indexOf(marker)) + 2));
    let server: ModelServer | undefined;
    afterEach(async () => server?.close());

    it('is retried from the start of the turn, whatever the offset', async () => {
      for (const cutAt of offsets(length)) {
        server = await startModelServer([
          { type: 'stream', body, cutAt },
          { type: 'stream', body },
        ]);
        const events = await run(vendor.provider(server));
        const where = `cut at byte ${cutAt} of ${length}`;
        const retries = typesOf(events).filter((t) => t === 'retry').length;
        assert.ok(retries <= 1, where);
        const retryAt = typesOf(events).indexOf('retry');
        assert.ok(!typesOf(events.slice(0, Math.max(0, retryAt))).includes('tool_intent'), `${where}: no intent before the retry`);
        assert.deepEqual(
          intentsOf(events).map((i) => [i.providerRef, i.input]),
          EXPECTED,
          where,
        );
        assert.equal(textAfterLastRetry(events), TURN.text!.join(''), where);
        assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'tool_intent' }, where);
        if (retries === 0) assert.equal(server.requests.length, 1, `${where}: only a cut after the stop marker needs no retry`);
        await server.close();
        server = undefined;
      }
    });

    it('fails cleanly when no retry is left, whatever the offset', async () => {
      for (const cutAt of offsets(length)) {
        server = await startModelServer([{ type: 'stream', body, cutAt }]);
        const events = await run(vendor.provider(server, { retry: { maxAttempts: 1 } }));
        const where = `cut at byte ${cutAt} of ${length}`;
        const last = events.at(-1) as ModelEvent;
        if (cutAt < stopEnd) assert.equal(last.type, 'error', `${where}: before the stop marker the turn cannot be whole`);
        if (last.type === 'error') {
          assert.equal(intentsOf(events).length, 0, `${where}: a failed turn proposes nothing`);
          assert.ok(!typesOf(events).includes('final'), where);
          assert.equal(last.error.kind, 'network', where);
        } else {
          // Only a cut after the stop marker may count as a finished turn, and then it is whole.
          assert.deepEqual(
            intentsOf(events).map((i) => [i.providerRef, i.input]),
            EXPECTED,
            where,
          );
          assert.deepEqual(last, { type: 'final', stopReason: 'tool_intent' }, where);
        }
        await server.close();
        server = undefined;
      }
    });
  });
}
