// browser_check on a real Chromium against a server that start_process started: the title, the
// console error the page logs, a failed request, a request off loopback blocked, the steps
// (fill, click, wait for text), a screenshot returned as an image, the server stopped after. And
// bad input: a page that never loads (timeout, the browser closed), a missing Chromium (the
// tool says how to install one).
import assert from 'node:assert/strict';
import type { ToolDefinition, Workspace } from '../../../src/kernel/index.js';
import { createBackgroundProcesses } from '../../../src/node/background-processes.js';
import { createBrowserChecker } from '../../../src/node/browser/browser-checker.js';
import { findChromium } from '../../../src/node/browser/find-chromium.js';
import { createBrowserCheckTool, createProcessTools } from '../../../src/tools/index.js';
import { context, type TempWorkspace, tempWorkspace } from '../tools/helpers.js';

const PAGE = `<!doctype html><title>Keel test page</title>
<script>console.error('boom from the page')</script>
<script src="http://example.com/tracker.js"></script>
<img src="/missing.png">
<input id="who"><button id="go" onclick="document.getElementById('out').textContent = 'Hello, ' + document.getElementById('who').value">Go</button>
<p id="out">waiting</p>`;

const SERVER = `
const http = require('node:http');
const page = ${JSON.stringify(PAGE)};
const s = http.createServer((q, r) => {
  if (q.url === '/') return r.end(page);
  if (q.url === '/never') return; // accepts and never answers
  r.statusCode = 404; r.end('no');
});
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port));
`;

describe('browser_check on a real Chromium', function () {
  this.timeout(60_000);
  let t: TempWorkspace;
  let ws: Workspace;
  let tools: Map<string, ToolDefinition>;
  let port: number;
  before(async function () {
    if (!(await findChromium())) {
      if (process.env.CI) throw new Error('no Chromium on this machine (apt-get install chromium)');
      this.skip();
    }
    t = await tempWorkspace({ 'server.js': SERVER });
    ws = { ...t.ws, browser: createBrowserChecker({ allowHosts: () => [] }) };
    const table = createBackgroundProcesses(ws);
    tools = new Map([...createProcessTools(table), createBrowserCheckTool(table)].map((d) => [d.name, d]));
    const started = await tools.get('start_process')!.execute({ name: 'web', command: 'node server.js' }, context(ws));
    assert.ok(started.ok, started.content);
    port = (started.data as { ports: number[] }).ports[0]!;
    assert.ok(port > 0, started.content);
  });
  after(async () => {
    if (!tools) return;
    const stopped = await tools.get('stop_process')!.execute({ name: 'web' }, context(ws));
    assert.match(stopped.content, /web: stopped/);
    await t.cleanup();
  });

  it('reports the title, console errors, failed and blocked requests, and a screenshot', async () => {
    const r = await tools.get('browser_check')!.execute(
      {
        url: `http://localhost:${port}/`,
        view: 'text',
        actions: [
          { type: 'fill', selector: '#who', value: 'Ada' },
          { type: 'click', selector: '#go' },
          { type: 'wait_for_text', text: 'Hello, Ada' },
        ],
      },
      context(ws),
    );
    assert.ok(r.ok, r.content);
    assert.match(r.content, /Title: Keel test page/);
    assert.match(r.content, /Console errors \(\d+\):\n- boom from the page/);
    assert.match(r.content, /missing\.png — HTTP 404/);
    assert.match(r.content, /Blocked \(not loopback, not allowed\) \(1\):\n- http:\/\/example\.com\/tracker\.js/);
    assert.match(r.content, /Hello, Ada/, 'the steps ran before the text was read');
    assert.equal(r.images?.length, 1);
    assert.equal(r.images![0]!.mediaType, 'image/png');
    assert.ok(Buffer.from(r.images![0]!.data, 'base64').subarray(1, 4).toString() === 'PNG');
  });

  it('reports the step that failed, and the accessibility tree', async () => {
    const r = await tools
      .get('browser_check')!
      .execute(
        { url: `http://127.0.0.1:${port}/`, view: 'accessibility', timeoutMs: 1500, actions: [{ type: 'click', selector: '#absent' }] },
        context(ws),
      );
    assert.equal(r.ok, false);
    assert.match(r.content, /Step 1 failed/);
    assert.match(r.content, /button "Go"/);
  });

  it('times out on a page that never loads, within its time', async () => {
    const at = Date.now();
    const r = await tools
      .get('browser_check')!
      .execute({ url: `http://127.0.0.1:${port}/never`, view: 'text', timeoutMs: 1500 }, context(ws));
    assert.equal(r.code, 'timeout');
    assert.match(r.content, /did not finish loading within 2s/);
    assert.ok(Date.now() - at < 15_000);
  });

  it('says how to install Chromium when there is none', async () => {
    const missing = { ...ws, browser: createBrowserChecker({ allowHosts: () => [], chromiumPath: '/nonexistent/chromium' }) };
    const r = await tools.get('browser_check')!.execute({ url: `http://127.0.0.1:${port}/`, view: 'text' }, context(missing));
    assert.equal(r.ok, false);
    assert.equal(r.retryable, false);
    assert.match(r.content, /No Chromium browser was found.*apt-get install chromium/);
  });
});
