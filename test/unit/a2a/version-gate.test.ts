// `keel serve`'s answer to a client of another A2A version: one JSON-RPC (or REST) error naming
// the version it speaks, and nothing on the server's stderr — the SDK alone printed a stack trace
// for each such request. A request of the version it speaks still reaches the SDK.
import assert from 'node:assert/strict';
import { startA2aServer, type A2aServer } from '../../../src/a2a/server.js';

const TOKEN = 'version-gate-test-token-0123';

describe('A2A version gate', () => {
  let server: A2aServer;
  let printed: unknown[][];
  const realError = console.error;

  before(async () => {
    server = await startA2aServer({
      host: '127.0.0.1',
      port: 0,
      tokens: [TOKEN],
      name: 'test',
      description: 'test',
      run: async () => ({ state: 'completed', answer: 'ok', artifacts: [] }),
    });
  });
  after(() => server.close());
  beforeEach(() => {
    printed = [];
    console.error = (...args: unknown[]) => void printed.push(args);
  });
  afterEach(() => {
    console.error = realError;
  });

  async function post(path: string, body: unknown, version?: string) {
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    if (version) headers['a2a-version'] = version;
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { error?: { code: number; message: string }; result?: unknown } };
  }

  it('answers an older version (or none, read as 0.3) with one error and prints no trace', async () => {
    const legacy = {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [] } },
    };
    for (const version of ['0.3', undefined]) {
      const reply = await post('', legacy, version);
      assert.equal(reply.body.error?.code, -32009);
      assert.match(
        reply.body.error?.message ?? '',
        /version '0\.3' is not supported\. Supported versions: 1\.0 \(send the A2A-Version: 1\.0 header\)/,
      );
    }
    const rest = await post('rest/message:send', {}, '0.3');
    assert.equal(rest.status, 400);
    assert.match(rest.body.error?.message ?? '', /not supported/);
    assert.deepEqual(printed, [], 'nothing printed on the server');
  });

  it('passes a request of the version it speaks to the SDK', async () => {
    const reply = await post('', { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: 'no-such-task' } }, '1.0');
    assert.notEqual(reply.body.error?.code, -32009);
    assert.ok(reply.body.error, 'the SDK answers: no such task');
  });
});
