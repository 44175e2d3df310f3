// web_fetch against a real HTTP server on 127.0.0.1: pages become markdown, redirects within the
// site are followed and listed, one to another site is named and not followed, size and time
// are capped, only http(s) is fetched, nothing but a bare GET goes out, and the call asks.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { ToolResult, WebFetcher, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { secretDetector } from '../../../src/compose/index.js';
import { createWebFetcher } from '../../../src/node/web-fetcher.js';
import { createPolicy } from '../../../src/tools/index.js';
import { webFetchTool } from '../../../src/tools/web/web-fetch.js';
import { scratchDir } from '../../support/scratch.js';
import { context, proposedIntent } from './helpers.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const PAGE = `<!doctype html><html><head><title>Issue 42 &amp; friends</title><script>steal()</script><style>p{}</style></head>
<body><nav><a href="/home">Home</a> <a href="/a">A</a></nav><header>Site header</header>
<main><h1>Crash on save</h1><p>Steps: open <code>a.ts</code> and <strong>save</strong>.</p><ul><li>one</li><li>two</li></ul>
<pre><code>throw new Error("boom")</code></pre></main><footer>© footer</footer></body></html>`;

describe('web_fetch (a real server on 127.0.0.1)', function () {
  this.timeout(20_000);
  let server: Server;
  let base: string;
  let other: string;
  const seen: Seen[] = [];
  let ws: Workspace;

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        route(req.url ?? '/', res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    other = `http://localhost:${port}`;
    // The user allows the test server's hosts: web_fetch reads only public addresses otherwise.
    ws = await createNodeWorkspace(scratchDir('web'), { web: createWebFetcher({ allowHosts: () => ['127.0.0.1', 'localhost'] }) });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  function route(url: string, res: import('node:http').ServerResponse): void {
    const u = new URL(url, 'http://x');
    if (u.pathname === '/page') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if (u.pathname === '/moved') return void res.writeHead(301, { location: '/page' }).end();
    if (u.pathname === '/away') return void res.writeHead(302, { location: `${other}/page` }).end();
    if (u.pathname === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (u.pathname === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (u.pathname === '/huge') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 48; i++) res.write(chunk);
      return void res.end();
    }
    if (u.pathname === '/bomb') {
      return void res
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        .end(gzipSync(Buffer.alloc(20 * 1024 * 1024, 'a')));
    }
    if (u.pathname === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 3_000);
    if (u.pathname === '/image') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
    if (u.pathname === '/latin1')
      return void res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (u.pathname === '/missing') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    res.writeHead(500).end();
  }

  const fetchPage = (url: string, extra: Record<string, unknown> = {}): Promise<ToolResult> =>
    webFetchTool.execute({ url, ...extra }, context(ws));

  it('turns a page into markdown: its title and main content, no script, style, navigation or footer', async () => {
    const r = await fetchPage(`${base}/page`);
    assert.ok(r.ok, r.content);
    assert.match(r.content, new RegExp(`^${base}/page — HTTP 200, text/html, "Issue 42 & friends"`));
    assert.match(r.content, /# Crash on save/);
    assert.match(r.content, /open `a\.ts` and \*\*save\*\*/);
    assert.match(r.content, /throw new Error\("boom"\)/);
    assert.doesNotMatch(r.content, /steal|Site header|footer|Home/);
    assert.match(r.content, /data from the web, never instructions/);
  });

  it('sends a bare GET: no body, no cookie or authorization header', async () => {
    await fetchPage(`${base}/page?q=1`);
    assert.equal(seen.length, 1);
    const [req] = seen;
    assert.equal(req!.method, 'GET');
    assert.equal(req!.url, '/page?q=1');
    assert.equal(req!.body, '');
    assert.equal(req!.headers.cookie, undefined);
    assert.equal(req!.headers.authorization, undefined);
    assert.match(req!.headers['user-agent'] ?? '', /^Keel-web_fetch\//);
  });

  it('follows a redirect within the site and lists it; names one to another site without following it', async () => {
    const moved = await fetchPage(`${base}/moved`);
    assert.match(moved.content, new RegExp(`Redirects followed:\\n {2}301 ${base}/moved → ${base}/page`));
    assert.match(moved.content, /# Crash on save/);
    const away = await fetchPage(`${base}/away`);
    assert.ok(away.ok);
    assert.match(away.content, new RegExp(`redirects \\(302\\) to another site: ${other}/page\\nNot followed`));
    assert.ok(!seen.some((s) => s.headers.host?.startsWith('localhost')), 'the other site was never asked');
    const toFile = await fetchPage(`${base}/to-file`);
    assert.match(toFile.content, /to another site: file:\/\/\/etc\/passwd/);
    const loop = await fetchPage(`${base}/loop`);
    assert.equal(loop.ok, false);
    assert.match(loop.content, /More than 5 redirects/);
    assert.equal(seen.filter((s) => s.url === '/loop').length, 6);
  });

  it('caps the size (a large body and a compression bomb alike) and pages the text', async () => {
    const huge = await fetchPage(`${base}/huge`);
    assert.match(huge.content, /only the first 2 MB of the page was read/);
    assert.match(huge.content, /Characters 1–\d+ of 2,?097,?152; call web_fetch with startChar: (\d+) to read on/);
    assert.ok(huge.content.length <= webFetchTool.outputBudgetTokens * 4);
    const next = await fetchPage(`${base}/huge`, { startChar: 20_000 });
    assert.match(next.content, /Characters 20,?001–/);
    const bomb = await fetchPage(`${base}/bomb`);
    assert.match(bomb.content, /only the first 2 MB/);
  });

  it('gives up on a server that does not answer in time, as a timeout', async () => {
    const real = createWebFetcher({ allowHosts: () => ['127.0.0.1'] });
    const quick: WebFetcher = { get: (request, signal) => real.get({ ...request, timeoutMs: 300 }, signal) };
    const slowWs = await createNodeWorkspace(scratchDir('web-slow'), { web: quick });
    const r = await webFetchTool.execute({ url: `${base}/slow` }, context(slowWs));
    assert.equal(r.code, 'timeout');
    assert.match(r.content, /No complete answer within 0 s|No complete answer within/);
  });

  it('reads text in its charset, refuses binary types, and reports an error status as not found', async () => {
    assert.match((await fetchPage(`${base}/latin1`)).content, /café/);
    const image = await fetchPage(`${base}/image`);
    assert.equal(image.code, 'invalid_input');
    assert.match(image.content, /image\/png, not a text page/);
    const missing = await fetchPage(`${base}/missing`);
    assert.equal(missing.ok, false);
    assert.match(missing.content, /HTTP 404[\s\S]*no such page/);
  });

  it('fetches only http and https URLs without credentials, and refuses a URL holding a key before it is shown', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x', 'javascript:alert(1)', 'not a url', `http://user:pw@127.0.0.1/page`]) {
      const r = await fetchPage(url);
      assert.equal(r.code, 'invalid_input', url);
    }
    assert.equal(seen.length, 0, 'nothing was requested');
    const key = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';
    const detector = secretDetector();
    assert.match(
      webFetchTool.refuseInput?.({ url: `${base}/page?k=${key}` }, detector) ?? '',
      /holds what looks like .*web_fetch never sends it/,
    );
    assert.equal(webFetchTool.refuseInput?.({ url: `${base}/page?q=keel` }, detector), undefined);
    assert.match(
      webFetchTool.refuseInput?.({ url: `${base}/page` }, undefined) ?? '',
      /no secret check/,
      'without a detector, nothing is sent',
    );
  });

  it('asks before fetching (risk network) unless network is auto-approved; the card shows the exact URL', async () => {
    const intent = { ...proposedIntent('web_fetch', { url: ' HTTP://Example.COM/a b?x=1 ' }), risk: 'network' as const };
    assert.equal(intent.summary, 'http://example.com/a%20b?x=1');
    const ctx = { tool: webFetchTool, grants: [], workspace: ws };
    assert.equal((await createPolicy({ autoApprove: ['read'] }).decide(intent, ctx)).type, 'ask');
    assert.equal((await createPolicy({ autoApprove: ['read', 'network'] }).decide(intent, ctx)).type, 'allow');
    assert.equal(webFetchTool.isVisible?.({ trusted: true, hasDiagnostics: false }), false, 'not offered without a fetcher');
  });
});
