// The table of background processes on the real Node workspace: a server's port read from its
// output, new output versus the tail, the limit said by name, stop and stop-all ending the
// whole process group, a server that never prints a port, a start that fails, bounded output,
// and a server in the sandbox listening on a loopback of its own that the host cannot reach.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { BackgroundError, BackgroundProcesses } from '../../../src/kernel/index.js';
import { createBackgroundProcesses } from '../../../src/node/background-processes.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { type TempWorkspace, tempWorkspace } from '../tools/helpers.js';

const SERVER = `
const http = require('node:http');
const s = http.createServer((q, r) => r.end('<title>hi</title>'));
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port + '/'));
setInterval(() => {}, 1000);
`;

const never = new AbortController().signal;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('background processes (Node)', function () {
  this.timeout(30_000);
  let t: TempWorkspace;
  let table: BackgroundProcesses;
  before(async () => {
    t = await tempWorkspace({ 'server.js': SERVER });
  });
  afterEach(() => table?.stopAll());
  after(() => t.cleanup());

  it('starts a server, reads the port it printed, and stop ends it', async () => {
    table = createBackgroundProcesses(t.ws);
    const started = await table.start({ name: 'web', command: 'node server.js' }, { settleMs: 10_000, signal: never });
    assert.equal(started.info.state, 'running');
    assert.equal(started.info.ports.length, 1, started.output.head);
    const port = started.info.ports[0]!;
    assert.ok(await connects(port), 'the server answers on the port it printed');
    const stopped = await table.stop('web');
    assert.equal(stopped.state, 'stopped');
    assert.equal(await connects(port), false, 'nothing listens after stop');
  });

  it('reads new output since the last read, and the tail of everything', async () => {
    table = createBackgroundProcesses(t.ws);
    await table.start({ name: 'ticker', command: 'echo first; sleep 0.3; echo second; sleep 30' }, { settleMs: 100, signal: never });
    await until(() => table.list()[0]!.outputChars >= 'first\nsecond\n'.length);
    const fresh = table.read('ticker', 'new');
    assert.equal(fresh.output.head + fresh.output.tail, 'second\n', 'the start already read "first"');
    assert.equal(table.read('ticker', 'new').output.totalChars, 0, 'nothing new since');
    const tail = table.read('ticker', 'tail').output;
    assert.equal(tail.head + tail.tail, 'first\nsecond\n');
  });

  it('refuses a start past the limit, naming what runs, and a name already running', async () => {
    table = createBackgroundProcesses(t.ws, { limit: 2 });
    await table.start({ name: 'a', command: 'sleep 30' }, { settleMs: 50, signal: never });
    await table.start({ name: 'b', command: 'sleep 30' }, { settleMs: 50, signal: never });
    await assert.rejects(
      table.start({ name: 'c', command: 'sleep 30' }, { settleMs: 50, signal: never }),
      (e: BackgroundError) => e.code === 'limit' && /At most 2 .* a, b are running/.test(e.message),
    );
    await assert.rejects(
      table.start({ name: 'a', command: 'true' }, { settleMs: 50, signal: never }),
      (e: BackgroundError) => e.code === 'name_taken',
    );
    await table.stop('a');
    const c = await table.start({ name: 'c', command: 'sleep 30' }, { settleMs: 50, signal: never });
    assert.equal(c.info.state, 'running', 'a stopped one frees its place');
  });

  it('stopAll ends every process group, children included', async () => {
    table = createBackgroundProcesses(t.ws);
    await table.start({ name: 'parent', command: 'sleep 60 & echo child $!; wait' }, { settleMs: 200, signal: never });
    await until(() => /child \d+/.test(table.read('parent', 'tail').output.head));
    const pid = Number(/child (\d+)/.exec(table.read('parent', 'tail').output.head)![1]);
    assert.ok(alive(pid));
    await table.stopAll();
    await until(() => !alive(pid));
    assert.equal(table.list()[0]!.state, 'stopped');
  });

  it('answers after the settle time for a server that never prints a port', async () => {
    table = createBackgroundProcesses(t.ws);
    const at = Date.now();
    const started = await table.start({ name: 'quiet', command: 'sleep 30' }, { settleMs: 300, signal: never });
    assert.ok(Date.now() - at < 3000);
    assert.deepEqual(started.info.ports, []);
    assert.equal(started.info.state, 'running');
  });

  it('says when a start fails, and reports one that exits at once with its code', async () => {
    table = createBackgroundProcesses(t.ws);
    await assert.rejects(
      table.start({ name: 'x', command: 'true', cwd: 'no-such-folder' }, { settleMs: 1000, signal: never }),
      (e: BackgroundError) => e.code === 'failed' && /not a folder/.test(e.message),
    );
    assert.equal(table.list().length, 0, 'a start that failed leaves no entry');
    const quick = await table.start({ name: 'quick', command: 'echo oops; exit 3' }, { settleMs: 5000, signal: never });
    assert.equal(quick.info.state, 'exited');
    assert.equal(quick.info.exitCode, 3);
    assert.throws(
      () => table.read('nope', 'new'),
      (e: BackgroundError) => e.code === 'not_found' && /quick/.test(e.message),
    );
  });

  it('keeps output bounded', async () => {
    table = createBackgroundProcesses(t.ws, { keepChars: 100 });
    await table.start({ name: 'loud', command: 'head -c 50000 /dev/zero | tr "\\0" x; sleep 30' }, { settleMs: 100, signal: never });
    await until(() => table.list()[0]!.outputChars >= 50_000);
    const tail = table.read('loud', 'tail').output;
    assert.equal(tail.totalChars, 50_000);
    assert.ok(tail.head.length + tail.tail.length <= 200);
  });

  it('runs a sandboxed server on a private loopback the host cannot reach', async function () {
    const ws = (await tempWorkspace({ 'server.js': SERVER })).ws;
    await sandboxOrSkip(this, ws.root);
    table = createBackgroundProcesses(ws);
    const started = await table.start(
      { name: 'boxed', command: 'node server.js', sandbox: 'read_only' },
      { settleMs: 10_000, signal: never },
    );
    assert.equal(started.info.sandbox, 'read_only');
    assert.equal(started.info.ports.length, 1, started.output.head + started.output.tail);
    assert.equal(await connects(started.info.ports[0]!), false, 'its port is in its own network namespace');
  });
});
