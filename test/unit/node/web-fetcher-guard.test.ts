// web_fetch's port reaches public addresses only: a server on 127.0.0.1 is never reached under
// any spelling of this machine (decimal, octal, hex, short forms, IPv4-mapped IPv6, 0.0.0.0,
// trailing dots, an IDN that maps to localhost, percent-encoding), nor are private, link-local,
// CGNAT, unique-local or metadata addresses, nor a name that resolves to one (or to one among
// public ones); the connection goes to the address that was checked, resolved once. A host the
// user allows is reached, and only that host and port. The yardstick: Node's own fetch does reach
// the server under the same spellings.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebError } from '../../../src/kernel/index.js';
import { addressRefusal } from '../../../src/node/web-address.js';
import { createWebFetcher, type ResolvedAddress } from '../../../src/node/web-fetcher.js';
import { loopbackSpellings } from '../../support/loopback-spellings.js';

const signal = new AbortController().signal;
const get = (fetcher: ReturnType<typeof createWebFetcher>, url: string, timeoutMs = 2000) =>
  fetcher.get({ url, maxBytes: 10_000, timeoutMs }, signal);

describe('web_fetch reaches public addresses only', function () {
  this.timeout(30_000);
  let server: Server;
  let port: number;
  let hits: string[];

  before(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.headers.host} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('inside');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    hits = [];
  });

  it('yardstick: Node’s own fetch reaches the server on 127.0.0.1 under these spellings', async () => {
    const reached: string[] = [];
    for (const url of [`http://2130706433:${port}/`, `http://0x7f000001:${port}/`, `http://127.1:${port}/`, `http://0.0.0.0:${port}/`]) {
      const r = await fetch(url).catch(() => undefined);
      if (r?.ok) reached.push(url);
    }
    assert.equal(reached.length, 4, reached.join(' '));
    assert.equal(hits.length, 4);
  });

  it('never reaches it under any spelling of this machine', async () => {
    const fetcher = createWebFetcher();
    for (const url of loopbackSpellings(port)) {
      await assert.rejects(get(fetcher, url), (err: unknown) => {
        assert.ok(err instanceof WebError, `${url}: ${String(err)}`);
        assert.equal(err.code, 'refused', `${url}: ${err.message}`);
        return true;
      });
    }
    assert.deepEqual(hits, []);
  });

  it('refuses private, link-local, CGNAT, unique-local and metadata addresses before connecting', async () => {
    const fetcher = createWebFetcher();
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://224.0.0.1/',
    ])
      await assert.rejects(get(fetcher, url, 500), (err: unknown) => err instanceof WebError && err.code === 'refused', url);
  });

  it('judges what a name resolves to: one private address among public ones refuses it', async () => {
    const answers: Record<string, ResolvedAddress[]> = {
      'metadata.test': [{ address: '169.254.169.254', family: 4 }],
      'mixed.test': [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      'v6.test': [{ address: '::1', family: 6 }],
    };
    const fetcher = createWebFetcher({ resolve: async (host) => answers[host] ?? [] });
    for (const host of Object.keys(answers))
      await assert.rejects(
        get(fetcher, `http://${host}:${port}/`),
        (err: unknown) => err instanceof WebError && err.code === 'refused',
        host,
      );
    assert.deepEqual(hits, []);
  });

  it('connects to the address it checked, resolved once: a name that answers public, then loopback, reaches nothing', async () => {
    const asked: string[] = [];
    const rebinding = async (host: string): Promise<ResolvedAddress[]> => {
      asked.push(host);
      // A public address to the check; this machine to any later lookup.
      return asked.length === 1 ? [{ address: '192.0.32.10', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    };
    const fetcher = createWebFetcher({ resolve: rebinding });
    await assert.rejects(get(fetcher, `http://rebind.test:${port}/`, 500));
    assert.deepEqual(asked, ['rebind.test'], 'resolved once');
    assert.deepEqual(hits, [], 'the loopback server was never reached');
  });

  it('reaches a host the user allows, by the address it resolved, and only that host and port', async () => {
    const named = createWebFetcher({ allowHosts: () => [`docs.test:${port}`], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const r = await get(named, `http://docs.test:${port}/page`);
    assert.equal(r.type, 'response');
    assert.deepEqual(hits, [`docs.test:${port} /page`], 'the request named the host; the connection went to the checked address');
    const byPort = createWebFetcher({ allowHosts: () => [`127.0.0.1:${port}`] });
    assert.equal((await get(byPort, `http://2130706433:${port}/`)).type, 'response', 'any spelling of an allowed host');
    await assert.rejects(get(byPort, `http://127.0.0.1:${port + 1}/`), (err: unknown) => err instanceof WebError && err.code === 'refused');
    await assert.rejects(get(byPort, `http://localhost:${port}/`), (err: unknown) => err instanceof WebError && err.code === 'refused');
    const anyPort = createWebFetcher({ allowHosts: () => ['localhost'] });
    assert.equal((await get(anyPort, `http://localhost:${port}/`)).type, 'response');
  });

  it('classifies addresses by listing what is public', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      assert.equal(addressRefusal(ip), undefined, ip);
    for (const ip of ['127.0.0.1', '0.0.0.0', '10.1.2.3', '100.64.0.1', '169.254.169.254', '192.0.0.192', '198.18.0.1', '255.255.255.255'])
      assert.ok(addressRefusal(ip), ip);
    for (const ip of ['::', '::1', '::127.0.0.1', 'fe80::1', 'fd00:ec2::254', 'ff02::1', '2001:db8::1', '2001::1', '4000::1'])
      assert.ok(addressRefusal(ip), ip);
  });
});
