// A misbehaving server (test/fixtures/mcp/faulty-server.mjs, on the SDK's own Server): a crash
// mid-call, a call that never answers, a schema that does not compile, a malformed line. Each
// gives the model a coded error and the user a notice, the task goes on, and a crashed server
// is restarted on the next call at most three times a task.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMcpHub } from '../../../src/compose/index.js';
import type { ToolContext, ToolDefinition } from '../../../src/kernel/index.js';
import { MAX_RESTARTS_PER_TASK, type McpHub, type McpNotice } from '../../../src/mcp/index.js';
import { scratchDir } from '../../support/scratch.js';

const FAULTY = path.resolve(__dirname, '../../fixtures/mcp/faulty-server.mjs');

function ctx(): ToolContext {
  return { signal: new AbortController().signal, onProgress: () => {} } as unknown as ToolContext;
}

describe('mcp client, failures', function () {
  this.timeout(30_000);
  let hub: McpHub;
  let notices: McpNotice[];
  let startsFile: string;
  beforeEach(async () => {
    startsFile = path.join(scratchDir('mcp-faulty'), 'starts');
    hub = createMcpHub(
      [
        {
          name: 'faulty',
          source: 'user',
          file: 'test',
          definition: { command: process.execPath, args: [FAULTY], env: { FAULTY_STARTS_FILE: startsFile } },
        },
      ],
      { mayStart: () => true, riskOverrides: () => ({}), callTimeoutMs: 500 },
    );
    notices = [];
    hub.onNotice((n) => notices.push(n));
    await hub.startAll();
    assert.equal(hub.status()[0]?.state, 'ready', hub.status()[0]?.error);
  });
  afterEach(() => hub.dispose());

  const tool = (tools: ToolDefinition[], name: string) => tools.find((t) => t.name === `mcp__faulty__${name}`)!;
  const starts = () => fs.readFileSync(startsFile, 'utf8').trim().split('\n').length;

  it('leaves out a tool whose schema does not compile, saying why, and keeps the others', () => {
    const tools = hub.toolsForTask();
    assert.equal(tool(tools, 'bad_schema'), undefined);
    assert.ok(tool(tools, 'noop'));
    const skipped = hub.status()[0]?.skipped ?? [];
    assert.deepEqual(
      skipped.map((s) => s.tool),
      ['bad_schema'],
    );
    assert.match(skipped[0]!.reason, /schema does not compile/);
    const listed = hub.status()[0]!.tools.map((t) => t.name);
    assert.ok(listed.includes('noop') && !listed.includes('bad_schema'), 'a tool left out is listed once, as left out');
    assert.ok(notices.some((n) => n.server === 'faulty' && /bad_schema/.test(n.message)));
  });

  it('gives a hanging call a timeout error, and the server still answers the next call', async () => {
    const tools = hub.toolsForTask();
    const hung = await tool(tools, 'hang').execute({}, ctx());
    assert.equal(hung.ok, false);
    assert.equal(hung.code, 'timeout');
    assert.ok(notices.some((n) => /did not answer in time/.test(n.message)));
    assert.deepEqual(await tool(tools, 'noop').execute({}, ctx()), { ok: true, content: 'ok', summary: 'faulty/noop' });
  });

  it('survives a malformed line from the server and notes it in the stderr tail', async () => {
    const result = await tool(hub.toolsForTask(), 'garbage').execute({}, ctx());
    assert.equal(result.content, 'after garbage');
    assert.match(hub.status()[0]!.stderrTail, /\[keel\]/);
  });

  it('turns a crash mid-call into a coded error, shows the stderr tail, and restarts on the next call', async () => {
    const tools = hub.toolsForTask();
    const crashed = await tool(tools, 'crash').execute({}, ctx());
    assert.equal(crashed.ok, false);
    assert.equal(crashed.code, 'execution_failed');
    const status = hub.status()[0]!;
    assert.equal(status.state, 'failed');
    assert.match(status.stderrTail, /about to crash/);
    assert.ok(notices.some((n) => n.server === 'faulty'));
    const again = await tool(tools, 'noop').execute({}, ctx());
    assert.equal(again.ok, true);
    assert.equal(starts(), 2);
  });

  it(`restarts a crashing server at most ${MAX_RESTARTS_PER_TASK} times a task; a new task has its own budget`, async () => {
    const tools = hub.toolsForTask();
    for (let i = 0; i <= MAX_RESTARTS_PER_TASK; i++) {
      const r = await tool(tools, 'crash').execute({}, ctx());
      assert.equal(r.code, 'execution_failed');
    }
    assert.equal(starts(), 1 + MAX_RESTARTS_PER_TASK);
    const refused = await tool(tools, 'noop').execute({}, ctx());
    assert.equal(refused.ok, false);
    assert.match(refused.content, /restart limit/);
    assert.equal(starts(), 1 + MAX_RESTARTS_PER_TASK);
    const next = await tool(hub.toolsForTask(), 'noop').execute({}, ctx());
    assert.equal(next.ok, true);
  });

  it('reports a server that cannot start as failed, with the reason', async () => {
    const broken = createMcpHub(
      [{ name: 'missing', source: 'user', file: 'test', definition: { command: '/nonexistent/server', args: [], env: {} } }],
      {
        mayStart: () => true,
        riskOverrides: () => ({}),
      },
    );
    try {
      await broken.startAll();
      const s = broken.status()[0]!;
      assert.equal(s.state, 'failed');
      assert.ok(s.error && s.error.length > 0);
      assert.deepEqual(broken.toolsForTask(), []);
    } finally {
      await broken.dispose();
    }
  });
});

describe('mcp client, a command that is not installed', function () {
  this.timeout(30_000);
  it('says which command was not found, in words, not "spawn … ENOENT"', async () => {
    const hub = createMcpHub(
      [{ name: 'gone', source: 'user', file: 'test', definition: { command: 'keel-no-such-command-34', args: [], env: {} } }],
      { mayStart: () => true, riskOverrides: () => ({}) },
    );
    try {
      await hub.startAll();
      const status = hub.status()[0]!;
      assert.equal(status.state, 'failed');
      assert.match(status.error ?? '', /the command "keel-no-such-command-34" was not found/);
      assert.doesNotMatch(`${status.error} ${status.stderrTail}`, /ENOENT/);
    } finally {
      await hub.dispose();
    }
  });
});
