// The server-sent-events decoder both adapters use: the SSE rules servers rely on, batches
// that follow the network reads, and linear cost however the bytes are cut.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { sseBatches, type SseMessage } from '../../../src/providers/sse.js';

/** A body that hands out one piece per read, as a socket would. */
function body(pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(c) {
      const p = pieces[i++];
      if (p === undefined) c.close();
      else c.enqueue(typeof p === 'string' ? enc.encode(p) : p);
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const batch of sseBatches(stream)) out.push(...batch);
  return out;
}

describe('providers: SSE decoder', () => {
  it('reads data, event names, multi-line data, CRLF, and skips comments', async () => {
    const got = await all(
      body([': keep-alive\n\n', 'event: delta\r\ndata: {"a":1}\r\n\r\n', 'data: line one\ndata: line two\n\n', 'data:no-space\n\n']),
    );
    assert.deepEqual(got, [
      { event: 'delta', data: '{"a":1}' },
      { event: undefined, data: 'line one\nline two' },
      { event: undefined, data: 'no-space' },
    ]);
  });

  it('joins bytes cut anywhere, even inside a UTF-8 character or a CRLF', async () => {
    const bytes = new TextEncoder().encode('data: {"t":"é🦀日"}\r\n\r\ndata: [DONE]\r\n\r\n');
    const pieces = Array.from(bytes, (b) => new Uint8Array([b]));
    assert.deepEqual(await all(body(pieces)), [
      { event: undefined, data: '{"t":"é🦀日"}' },
      { event: undefined, data: '[DONE]' },
    ]);
  });

  it('hands out the events each read completed, as one batch per read', async () => {
    const batches: string[][] = [];
    const reads = ['data: a\n\ndata: b\n\ndata: c', '1\n', '\n', ': ping\n\n', 'data: d\n\n'];
    for await (const batch of sseBatches(body(reads))) batches.push(batch.map((m) => m.data));
    assert.deepEqual(batches, [['a', 'b'], ['c1'], ['d']]);
  });

  it('drops an event cut before its blank line', async () => {
    assert.deepEqual(await all(body(['data: whole\n\n', 'data: {"cut":'])), [{ event: undefined, data: 'whole' }]);
  });

  it('costs time in proportion to the bytes, however they are cut', async function () {
    this.timeout(60_000);
    const one = 'data: {"choices":[{"delta":{"content":"x"}}]}\n\n';
    // Many events in one read (a burst), and one huge line arriving in many small reads.
    const burst = (events: number) => [one.repeat(events)];
    const longLine = (events: number) => {
      const line = `data: ${'y'.repeat(events * 40)}\n\n`;
      const pieces: string[] = [];
      for (let i = 0; i < line.length; i += 100) pieces.push(line.slice(i, i + 100));
      return pieces;
    };
    for (const shape of [burst, longLine]) {
      const time = async (events: number) => {
        let best = Infinity;
        for (let i = 0; i < 5; i++) {
          const stream = body(shape(events));
          const start = performance.now();
          await all(stream);
          best = Math.min(best, performance.now() - start);
        }
        return best;
      };
      await time(2000);
      const ratio = (await time(64_000)) / (await time(2000));
      // Linear is 32; a decoder that rescans its buffer per event or per read is ~1000.
      // The margin is wide because the machine running the tests may be busy.
      assert.ok(ratio < 200, `${shape.name}: 32× the bytes took ${ratio.toFixed(1)}× the time`);
    }
  });
});
