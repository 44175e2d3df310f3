// An MCP stdio server the user marked read-only (keel.mcp.risk: "read" for the server) starts in
// the OS sandbox: its process lives in a mount namespace of its own, and its tools still answer.
// With the sandbox off it starts as defined; with no sandbox available its tools ask (execute).
// Inside the sandbox it gets the environment commands get: no inherited credential, its own
// configured variables kept.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { createMcpHub } from '../../../src/compose/index.js';
import type { SandboxMode, ToolContext } from '../../../src/kernel/index.js';
import type { McpHub, McpServerConfig } from '../../../src/mcp/index.js';
import type { NodeSandbox } from '../../../src/node/sandbox/node-sandbox.js';
import { sandboxOrSkip } from '../../support/sandbox.js';

const require = createRequire(__filename);
const ROOT = path.resolve(__dirname, '../../..');
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
/** Each start's server carries its own marker, so other tests' servers are never taken for it. */
let mark = '';
const server = (): McpServerConfig => {
  mark = `KEEL_TEST_MARK=${randomBytes(6).toString('hex')}`;
  const [name, value] = mark.split('=') as [string, string];
  return {
    name: 'everything',
    source: 'user',
    file: 'test',
    definition: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { [name]: value } },
  };
};

/** The mount namespace of the server's own process (not bwrap's). */
function serverNamespace(): string | undefined {
  for (const pid of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmdline[0]?.endsWith('bwrap') || !cmdline.includes(EVERYTHING)) continue;
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark)) continue;
      return fs.readlinkSync(`/proc/${pid}/ns/mnt`);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

describe('mcp: a server marked read-only starts in the sandbox', function () {
  this.timeout(60_000);
  let sandbox: NodeSandbox;
  let hub: McpHub | undefined;
  before(async function () {
    sandbox = await sandboxOrSkip(this, ROOT);
  });
  afterEach(async () => hub?.dispose());

  const start = async (support: NodeSandbox, mode: SandboxMode, config = server()) => {
    hub = createMcpHub([config], {
      cwd: ROOT,
      mayStart: () => true,
      riskOverrides: () => ({ everything: 'read' }),
      sandbox: { support, mode: () => mode },
    });
    await hub.startAll();
    assert.equal(hub.status()[0]?.state, 'ready', hub.status()[0]?.error);
    return hub;
  };

  it('runs in a mount namespace of its own, and its tools answer, at the risk the user set', async () => {
    const h = await start(sandbox, 'unasked');
    const ns = serverNamespace();
    assert.ok(ns, 'the server process was found');
    assert.notEqual(ns, fs.readlinkSync('/proc/self/ns/mnt'));
    const echo = h.toolsForTask().find((t) => t.name === 'mcp__everything__echo')!;
    assert.equal(echo.risk, 'read');
    const r = await echo.execute({ message: 'hi' }, {
      signal: new AbortController().signal,
      onProgress: () => {},
    } as unknown as ToolContext);
    assert.ok(r.ok && r.content.includes('hi'), r.content);
  });

  it('in the sandbox, gets no inherited credential and keeps the variables its definition sets', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { GITHUB_TOKEN: 'gh-token-from-the-shell', HARMLESS: 'yes' });
    try {
      const config = server();
      const d = config.definition as Extract<McpServerConfig['definition'], { command: string }>;
      const h = await start(sandbox, 'unasked', { ...config, definition: { ...d, env: { ...d.env, OWN_SETTING: 'on' } } });
      assert.notEqual(serverNamespace(), fs.readlinkSync('/proc/self/ns/mnt'), 'it runs in the sandbox');
      const getEnv = h.toolsForTask().find((t) => t.name === 'mcp__everything__get-env')!;
      const r = await getEnv.execute({}, { signal: new AbortController().signal, onProgress: () => {} } as unknown as ToolContext);
      const env = JSON.parse(r.content) as Record<string, string>;
      assert.equal(env.GITHUB_TOKEN, undefined);
      assert.equal(env.HARMLESS, 'yes');
      assert.equal(env.OWN_SETTING, 'on');
    } finally {
      process.env = saved;
    }
  });

  it('starts as defined when the sandbox is off', async () => {
    await start(sandbox, 'off');
    assert.equal(serverNamespace(), fs.readlinkSync('/proc/self/ns/mnt'));
  });

  it('with no sandbox available, starts as defined and its tools ask', async () => {
    const none = { ...sandbox, status: () => ({ type: 'unavailable' as const, reason: 'test' }) };
    const h = await start(none, 'unasked');
    assert.equal(serverNamespace(), fs.readlinkSync('/proc/self/ns/mnt'));
    assert.equal(h.toolsForTask().find((t) => t.name === 'mcp__everything__echo')?.risk, 'execute');
  });
});
