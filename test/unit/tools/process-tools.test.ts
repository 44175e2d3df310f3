// The process tools as the model meets them: start_process goes through run_command's classifier
// and policy (a read-only line runs unasked in the sandbox, a server asks, a denied prefix is
// refused) and passes the approval's sandbox profile on; the answers name the port, the limit
// and a missing process; browser_check refuses a page off loopback and a port the sandbox holds.
import assert from 'node:assert/strict';
import type { BackgroundProcesses, PolicyContext, ToolDefinition } from '../../../src/kernel/index.js';
import { createBackgroundProcesses } from '../../../src/node/background-processes.js';
import { createBrowserCheckTool, createPolicy, createProcessTools } from '../../../src/tools/index.js';
import { pageAddress } from '../../../src/tools/browser/page-address.js';
import { context, intentFor, type TempWorkspace, tempWorkspace } from './helpers.js';

const SERVER = `
const s = require('node:http').createServer((q, r) => r.end('ok'));
s.listen(0, '127.0.0.1', () => console.log('Server listening on :' + s.address().port));
`;

describe('process tools', function () {
  this.timeout(30_000);
  let t: TempWorkspace;
  let table: BackgroundProcesses;
  let tools: Map<string, ToolDefinition>;
  beforeEach(async () => {
    t = await tempWorkspace({ 'server.js': SERVER, 'package.json': '{"scripts":{"dev":"node server.js","test":"node --test"}}\n' });
    table = createBackgroundProcesses(t.ws, { limit: 1 });
    tools = new Map([...createProcessTools(table), createBrowserCheckTool(table)].map((d) => [d.name, d]));
  });
  afterEach(async () => {
    await table.stopAll();
    await t.cleanup();
  });
  const tool = (name: string) => tools.get(name)!;

  it('decides start_process as run_command decides its command line', async () => {
    const policy = createPolicy({ autoApprove: ['read', 'execute'] });
    const decide = (command: string, p = policy) => {
      const start = tool('start_process');
      const ctx: PolicyContext = { tool: start, grants: [], workspace: t.ws };
      return p.decide(intentFor(start, { name: 'p', command }), ctx);
    };
    const readOnly = await decide('cat package.json');
    assert.deepEqual(
      [readOnly.type, readOnly.type !== 'deny' && readOnly.sandbox],
      ['allow', 'read_only'],
      'a read-only line runs unasked, sandboxed',
    );
    const server = await decide('npm run dev');
    assert.equal(server.type, 'ask', 'a server asks');
    assert.equal(server.type === 'ask' && server.sandbox, 'none', 'approved, it runs as the user would run it');
    const denied = await decide('npm run dev', createPolicy({ commandRules: { deny: ['npm run'] } }));
    assert.equal(denied.type, 'deny');
    const elsewhere = await decide('cat /etc/passwd');
    assert.notEqual(elsewhere.type, 'allow', 'a read outside the workspace does not run unasked');
  });

  it('runs what it starts in the sandbox profile the approval chose', async () => {
    const r = await tool('start_process').execute(
      { name: 'ro', command: 'touch made.txt; echo done; sleep 30' },
      { ...context(t.ws), sandbox: 'read_only' },
    );
    assert.ok(r.ok, r.content);
    assert.match(r.content, /in the sandbox/);
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(await t.ws.stat('made.txt'), undefined, 'the read-only profile wrote nothing');
  });

  it('answers with the port, the limit by name, the output, and a missing name', async () => {
    const started = await tool('start_process').execute({ name: 'web', command: 'node server.js' }, context(t.ws));
    assert.ok(started.ok, started.content);
    assert.match(started.content, /web: running, port \d+/);
    const over = await tool('start_process').execute({ name: 'two', command: 'sleep 30' }, context(t.ws));
    assert.equal(over.ok, false);
    assert.match(over.content, /At most 1 background processes run at once, and web are running/);
    const listed = await tool('list_processes').execute({}, context(t.ws));
    assert.match(listed.content, /1 of at most 1 running\.\nweb: running, port \d+/);
    const tail = await tool('read_process_output').execute({ name: 'web', mode: 'tail' }, context(t.ws));
    assert.match(tail.content, /Server listening on :\d+/);
    const missing = await tool('stop_process').execute({ name: 'nope' }, context(t.ws));
    assert.equal(missing.code, 'not_found');
    assert.match(missing.content, /this task has web/);
    const stopped = await tool('stop_process').execute({ name: 'web' }, context(t.ws));
    assert.match(stopped.content, /Stopped\. web: stopped/);
  });

  it('tells the model when no port has been printed', async () => {
    table = createBackgroundProcesses(t.ws);
    const quiet = createProcessTools(table)[0]!;
    const r = await quiet.execute({ name: 'q', command: 'echo building; sleep 30' }, context(t.ws));
    assert.match(r.content, /no port printed yet/);
    assert.match(r.content, /It has printed no port yet/);
  });

  it('browser_check refuses a page off loopback unless the host is allowed', () => {
    const none = () => false;
    assert.equal(pageAddress('http://localhost:5173/', none).ok, true);
    assert.equal(pageAddress('http://127.0.0.2:80/', none).ok, true);
    assert.equal(pageAddress('http://[::1]:3000/', none).ok, true);
    const out = pageAddress('https://example.com/', none);
    assert.ok(!out.ok && /not on this machine's loopback/.test(out.reason));
    assert.equal(pageAddress('http://docs.internal:8080/', (h) => h === 'docs.internal:8080').ok, true);
    assert.equal(pageAddress('http://127.0.0.1.nip.io/', none).ok, false, 'a name that resolves to loopback is another host');
    assert.equal(pageAddress('file:///etc/passwd', none).ok, false);
    assert.equal(pageAddress('http://u:p@localhost/', none).ok, false);
  });

  it('browser_check refuses a port a sandboxed process of the task listens on, saying why', async () => {
    await tool('start_process').execute({ name: 'boxed', command: 'node server.js' }, { ...context(t.ws), sandbox: 'read_only' });
    const port = table.list()[0]!.ports[0];
    assert.ok(port, 'the boxed server printed its port');
    const browser = { allowsHost: () => false, check: () => Promise.reject(new Error('the browser must not be started')) };
    const r = await tool('browser_check').execute({ url: `http://localhost:${port}/`, view: 'text' }, context({ ...t.ws, browser }));
    assert.equal(r.code, 'permission_denied');
    assert.match(r.content, /boxed.*runs in the sandbox.*private loopback/);
    const remote = await tool('browser_check').execute({ url: 'https://example.com/', view: 'text' }, context({ ...t.ws, browser }));
    assert.equal(remote.code, 'permission_denied');
  });
});
