// keel run's MCP servers: --mcp-config files start like the user's own; the workspace's
// .vscode/mcp.json servers are listed and skipped unless --mcp-workspace; a bad entry is named.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRunArgs } from '../../../src/cli/args.js';
import { cliMcpHub } from '../../../src/cli/mcp.js';
import { scratchDir } from '../../support/scratch.js';

const FAULTY = path.resolve(__dirname, '../../fixtures/mcp/faulty-server.mjs');

function setup() {
  const root = scratchDir('cli-mcp-ws');
  const config = scratchDir('cli-mcp-home');
  const server = { command: process.execPath, args: [FAULTY] };
  fs.mkdirSync(path.join(root, '.vscode'));
  fs.writeFileSync(path.join(root, '.vscode/mcp.json'), JSON.stringify({ servers: { fromWorkspace: server } }));
  const extra = path.join(config, 'extra.json');
  fs.writeFileSync(extra, `// mine\n{ "servers": { "mine": ${JSON.stringify(server)}, "broken": { "type": "http" } } }`);
  return { root, extra, env: { XDG_CONFIG_HOME: config } };
}

function sink() {
  let text = '';
  const write = (s: string) => {
    text += s;
    return true;
  };
  return { stream: { write } as unknown as NodeJS.WritableStream, text: () => text };
}

describe('keel run --mcp-config', function () {
  this.timeout(20_000);

  it('parses the flags', () => {
    const o = parseRunArgs(['run', '--mcp-config', 'a.json', '--mcp-config', 'b.json', '--mcp-workspace', 'task'], '/w');
    assert.deepEqual(o.mcpConfigs, ['a.json', 'b.json']);
    assert.equal(o.mcpWorkspace, true);
    assert.equal(parseRunArgs(['run', 'task'], '/w').mcpWorkspace, false);
  });

  it("starts --mcp-config servers, skips the workspace's with a message, names a bad entry", async () => {
    const { root, extra, env } = setup();
    const err = sink();
    const hub = await cliMcpHub({ mcpConfigs: [extra], mcpWorkspace: false, passEnv: [] }, root, env, err.stream);
    try {
      const states = Object.fromEntries(hub!.status().map((s) => [s.name, s.state]));
      assert.deepEqual(states, { fromWorkspace: 'awaiting_approval', mine: 'ready' });
      assert.match(err.text(), /skipped the workspace's MCP server "fromWorkspace" .*--mcp-workspace/);
      assert.match(err.text(), /extra\.json \(server "broken"\)/);
      assert.ok(hub!.toolsForTask().some((t) => t.name === 'mcp__mine__noop'));
      assert.ok(!hub!.toolsForTask().some((t) => t.name.startsWith('mcp__fromWorkspace__')));
    } finally {
      await hub?.dispose();
    }
  });

  it('starts the workspace servers with --mcp-workspace', async () => {
    const { root, env } = setup();
    const hub = await cliMcpHub({ mcpConfigs: [], mcpWorkspace: true, passEnv: [] }, root, env, sink().stream);
    try {
      assert.equal(hub!.status()[0]?.state, 'ready');
    } finally {
      await hub?.dispose();
    }
  });
});
