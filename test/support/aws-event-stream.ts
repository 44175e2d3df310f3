// Amazon's event-stream framing (application/vnd.amazon.eventstream), as Bedrock's
// InvokeModelWithResponseStream sends it, written from the format's published description: each
// message is a prelude (total length and headers length, big-endian uint32s, then a CRC32 of
// those 8 bytes), the headers (name length byte, name, value type byte — 7 for a string —,
// uint16 value length, value), the payload, and a CRC32 of everything before it. A Bedrock
// `chunk` event's payload is JSON `{"bytes": base64 of one Anthropic stream event's JSON}`; a
// failure mid-stream is an `exception` message naming its type. The stand-in for Bedrock.

/** The CRC-32 of IEEE 802.3 (reflected polynomial 0xEDB88320), the checksum the format uses. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const STRING_VALUE = 7;

function headerBytes(headers: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = Buffer.from(name, 'utf8');
    const v = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(1 + n.length + 1 + 2);
    head.writeUInt8(n.length, 0);
    n.copy(head, 1);
    head.writeUInt8(STRING_VALUE, 1 + n.length);
    head.writeUInt16BE(v.length, 2 + n.length);
    parts.push(head, v);
  }
  return Buffer.concat(parts);
}

/** One event-stream message. */
function eventStreamMessage(headers: Record<string, string>, payload: Uint8Array): Buffer {
  const h = headerBytes(headers);
  const total = 12 + h.length + payload.length + 4;
  const out = Buffer.alloc(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(h.length, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  h.copy(out, 12);
  Buffer.from(payload).copy(out, 12 + h.length);
  out.writeUInt32BE(crc32(out.subarray(0, total - 4)), total - 4);
  return out;
}

/** A Bedrock `chunk` event carrying one Anthropic stream event. */
function bedrockChunk(event: unknown): Buffer {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return eventStreamMessage(
    { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify({ bytes })),
  );
}

/** A Bedrock exception mid-stream (`throttlingException`, `modelStreamErrorException`, …). */
export function bedrockException(type: string, message: string): Buffer {
  return eventStreamMessage(
    { ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' },
    Buffer.from(JSON.stringify({ message })),
  );
}

/** The events of an Anthropic server-sent-events body, as the JSON each `data:` line holds. */
function sseEvents(body: string): unknown[] {
  return body
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

/** Bedrock's body for the stream an Anthropic SSE body carries, and where each message ends. */
export function bedrockBody(sse: string, after: Buffer[] = []): { body: Buffer; ends: number[] } {
  const messages = [...sseEvents(sse).map(bedrockChunk), ...after];
  const ends: number[] = [];
  let at = 0;
  for (const m of messages) ends.push((at += m.length));
  return { body: Buffer.concat(messages), ends };
}

export const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';
