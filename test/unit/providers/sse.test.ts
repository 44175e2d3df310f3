// The server-sent-events decoder both adapters use: the SSE rules servers rely on, batches
// that follow the network reads, and linear cost however the bytes are cut.
import assert from 'node:assert/strict';
import { sseBatches, type SseMessage, type SseWork } from '../../../src/providers/sse.js';

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

  it('does work in proportion to the bytes, however they are cut', async () => {
    // Work is counted, not timed (the timing lives in bench/providers.ts): a decoder that
    // rescanned its buffer per event or per read would count ~1000× for 32× the bytes.
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
      const work = async (events: number) => {
        const counter: SseWork = { chars: 0 };
        for await (const _ of sseBatches(body(shape(events)), counter));
        return counter.chars;
      };
      const small = await work(2000);
      const ratio = (await work(64_000)) / small;
      assert.ok(small >= shape(2000).join('').length, `${shape.name}: every character is looked at`);
      assert.ok(ratio < 33, `${shape.name}: 32× the bytes took ${ratio.toFixed(1)}× the work`);
    }
  });
});
