// The MCP client against real servers: the reference "everything" server (stdio, from npm)
// and a streamable HTTP server this test starts with the SDK on 127.0.0.1. Listing, a call
// through a composed runtime, an image result, resources, the scrubbed environment, approval.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as http from 'node:http';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { composeRuntime, createMcpHub } from '../../../src/compose/index.js';
import type { ModelRequest, Observation, ToolContext } from '../../../src/kernel/index.js';
import type { McpHub, McpServerConfig } from '../../../src/mcp/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

const require = createRequire(__filename);
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

function everything(env: Record<string, string> = {}): McpServerConfig {
  return { name: 'everything', source: 'user', file: 'test', definition: { command: process.execPath, args: [EVERYTHING, 'stdio'], env } };
}

function hubOf(servers: McpServerConfig[], more: Partial<Parameters<typeof createMcpHub>[1]> = {}): McpHub {
  return createMcpHub(servers, { mayStart: () => true, riskOverrides: () => ({}), ...more });
}

function ctx(): ToolContext {
  return { signal: new AbortController().signal, onProgress: () => {} } as unknown as ToolContext;
}

describe('mcp client, real servers', function () {
  this.timeout(30_000);
  const hubs: McpHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.dispose()));
  });
  const track = (h: McpHub) => {
    hubs.push(h);
    return h;
  };

  describe('the everything server (stdio)', () => {
    it('lists its tools as mcp__SERVER__TOOL, execute risk by default, overrides from settings', async () => {
      const hub = track(hubOf([everything()], { riskOverrides: () => ({ everything: 'read', 'everything/get-env': 'network' }) }));
      await hub.startAll();
      const [status] = hub.status();
      assert.equal(status?.state, 'ready', status?.error);
      const tools = hub.toolsForTask();
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('mcp__everything__echo'));
      assert.ok(names.includes('mcp_read_resource'));
      assert.ok(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n)));
      assert.equal(tools.find((t) => t.name === 'mcp__everything__echo')?.risk, 'read');
      assert.equal(tools.find((t) => t.name === 'mcp__everything__get-env')?.risk, 'network');
      const plain = track(hubOf([everything()]));
      await plain.startAll();
      const echo = plain.toolsForTask().find((t) => t.name === 'mcp__everything__echo')!;
      assert.equal(echo.risk, 'execute');
      // The server says echo only reads: shown, never trusted.
      assert.equal(echo.readOnly, false);
      assert.match(echo.summarize({ message: 'x' }), /server says read-only/);
      assert.equal((echo.input.safeParse({}) as { success: boolean }).success, false, 'message is required by its schema');
    });

    it('runs a call through a composed runtime: approved, observed, the schema sent to the model', async () => {
      const hub = track(hubOf([everything()]));
      await hub.startAll();
      const requests: ModelRequest[] = [];
      const provider = new ScriptedProvider((request, turn) => {
        requests.push(request);
        return turn === 0 ? toolTurn('mcp__everything__echo', { message: 'hello mcp' }) : textTurn('done');
      });
      const runtime = composeRuntime({
        provider,
        settings: { maxTurns: 4, autoApprove: ['read', 'execute'], commandsAllow: [], commandsDeny: [] },
        workspace: await createNodeWorkspace(scratchDir('mcp-ws')),
        trusted: () => true,
        interactive: false,
        mcp: hub,
      });
      for await (const _ of runtime.send('echo something')) void _;
      const schema = requests[0]!.tools.find((t) => t.name === 'mcp__everything__echo');
      assert.ok(schema, 'the model is offered the MCP tool');
      assert.deepEqual(Object.keys((schema.inputSchema as { properties: object }).properties), ['message']);
      const observation = observations(runtime.getState().messages)[0];
      assert.equal(observation?.ok, true);
      assert.match(observation!.content, /hello mcp/);
      assert.equal(runtime.getState().status, 'completed');
    });

    it('passes an image result to the model as an image part', async () => {
      const hub = track(hubOf([everything()]));
      await hub.startAll();
      const tool = hub.toolsForTask().find((t) => t.name === 'mcp__everything__get-tiny-image')!;
      const result = await tool.execute({}, ctx());
      assert.equal(result.ok, true);
      assert.equal(result.images?.length, 1);
      assert.equal(result.images?.[0]?.mediaType, 'image/png');
      assert.ok(Buffer.from(result.images![0]!.data, 'base64').subarray(1, 4).toString() === 'PNG');
    });

    it("carries the image from the task's log into the next model request", async () => {
      const hub = track(hubOf([everything()]));
      await hub.startAll();
      const requests: ModelRequest[] = [];
      const provider = new ScriptedProvider((request, turn) => {
        requests.push(request);
        return turn === 0 ? toolTurn('mcp__everything__get-tiny-image', {}) : textTurn('a logo');
      });
      const runtime = composeRuntime({
        provider,
        settings: { maxTurns: 4, autoApprove: ['read', 'execute'], commandsAllow: [], commandsDeny: [] },
        workspace: await createNodeWorkspace(scratchDir('mcp-ws')),
        trusted: () => true,
        interactive: false,
        mcp: hub,
      });
      for await (const _ of runtime.send('show the image')) void _;
      const result = requests[1]?.messages.find((m) => m.role === 'tool_result');
      assert.equal(result?.role === 'tool_result' ? result.images?.[0]?.mediaType : undefined, 'image/png');
    });

    it('lists and reads resources through mcp_read_resource', async () => {
      const hub = track(hubOf([everything()]));
      await hub.startAll();
      const tool = hub.toolsForTask().find((t) => t.name === 'mcp_read_resource')!;
      const listed = await tool.execute({}, ctx());
      assert.equal(listed.ok, true);
      const uri = /everything {2}(\S+\.md)/.exec(listed.content)?.[1];
      assert.ok(uri, listed.content);
      const read = await tool.execute({ server: 'everything', uri }, ctx());
      assert.equal(read.ok, true);
      assert.ok(read.content.startsWith(`[${uri}]`));
      assert.ok(read.content.length > uri.length + 10);
      const unknown = await tool.execute({ server: 'nope', uri }, ctx());
      assert.equal(unknown.code, 'invalid_input');
    });

    it('starts a stdio server without provider keys or held secrets, with its configured variables', async () => {
      const saved = { ...process.env };
      process.env.ANTHROPIC_API_KEY = 'sk-ant-test-key-123456';
      process.env.SOME_TOKEN = 'held-secret-value-0000';
      try {
        const hub = track(hubOf([everything({ MCP_SETTING: 'on' })], { secrets: () => ['held-secret-value-0000'] }));
        await hub.startAll();
        const tool = hub.toolsForTask().find((t) => t.name === 'mcp__everything__get-env')!;
        const env = JSON.parse((await tool.execute({}, ctx())).content) as Record<string, string>;
        assert.equal(env.MCP_SETTING, 'on');
        assert.equal(env.ANTHROPIC_API_KEY, undefined);
        assert.equal(env.SOME_TOKEN, undefined);
        assert.ok(env.PATH);
      } finally {
        process.env = saved;
      }
    });

    it('withholds inherited credentials from a stdio server unless passed; its own configured variables stay', async () => {
      const saved = { ...process.env };
      const slack = ['xoxb', '123456789012', '1234567890123', 'AbCdEfGhIjKlMnOpQrStUvWx'].join('-');
      Object.assign(process.env, {
        GITHUB_TOKEN: 'gh-token-from-the-shell',
        NOTIFY_WITH: slack,
        NPM_TOKEN: 'npm-token-value',
        HARMLESS: 'yes',
      });
      try {
        const getEnv = async (more: Partial<Parameters<typeof createMcpHub>[1]>) => {
          const hub = track(hubOf([everything({ GITHUB_PERSONAL_ACCESS_TOKEN: 'from-mcp-json' })], more));
          await hub.startAll();
          const tool = hub.toolsForTask().find((t) => t.name === 'mcp__everything__get-env')!;
          const env = JSON.parse((await tool.execute({}, ctx())).content) as Record<string, string>;
          await hub.dispose();
          return env;
        };
        const env = await getEnv({});
        assert.deepEqual([env.GITHUB_TOKEN, env.NOTIFY_WITH, env.NPM_TOKEN], [undefined, undefined, undefined]);
        assert.equal(env.HARMLESS, 'yes');
        assert.equal(env.GITHUB_PERSONAL_ACCESS_TOKEN, 'from-mcp-json', "the server's own configuration is the user's");
        const passed = await getEnv({ passEnv: () => ['NPM_TOKEN'] });
        assert.equal(passed.NPM_TOKEN, 'npm-token-value');
        assert.equal(passed.GITHUB_TOKEN, undefined);
      } finally {
        process.env = saved;
      }
    });

    it('does not start a server the host has not allowed (a workspace server awaiting approval)', async () => {
      const config = { ...everything(), source: 'workspace' as const };
      let approved = false;
      const hub = track(hubOf([config], { mayStart: () => approved }));
      await hub.startAll();
      assert.equal(hub.status()[0]?.state, 'awaiting_approval');
      assert.deepEqual(hub.toolsForTask(), []);
      approved = true;
      await hub.restart('everything');
      assert.equal(hub.status()[0]?.state, 'ready');
      await hub.setEnabled('everything', false);
      assert.equal(hub.status()[0]?.state, 'disabled');
      assert.deepEqual(hub.toolsForTask(), []);
    });
  });

  describe('a streamable HTTP server on 127.0.0.1', () => {
    let server: http.Server;
    let url: string;
    before(async () => {
      server = http.createServer(async (req, res) => {
        // Stateless: a fresh server and transport per request, as the SDK's examples allow.
        const mcp = new McpServer({ name: 'http-test', version: '1.0.0' });
        mcp.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
          content: [{ type: 'text', text: String(a + b) }],
        }));
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => void transport.close());
        await mcp.connect(transport);
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
        await transport.handleRequest(req, res, body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('lists its tools and calls one; a bad argument is refused by its schema before the call', async () => {
      const hub = track(hubOf([{ name: 'web', source: 'user', file: 'test', definition: { type: 'http', url, headers: {} } }]));
      await hub.startAll();
      assert.equal(hub.status()[0]?.state, 'ready', hub.status()[0]?.error);
      const add = hub.toolsForTask().find((t) => t.name === 'mcp__web__add')!;
      assert.ok(add);
      assert.deepEqual(await add.execute({ a: 2, b: 40 }, ctx()), { ok: true, content: '42', summary: 'web/add' });
      assert.equal(add.input.safeParse({ a: 'two', b: 1 }).success, false);
    });
  });
});

function observations(messages: readonly { type: string }[]): Observation[] {
  return messages.flatMap((m) => (m.type === 'observation' ? [(m as unknown as { observation: Observation }).observation] : []));
}
