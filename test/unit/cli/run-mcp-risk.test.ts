// The CLI's MCP risk, with a real stdio MCP server over a folder (test/fixtures/mcp/files-server.mjs)
// and `keel run --output json --approve read,write,execute`: a tool runs unasked only when its
// server marks it read-only AND the user's config trusts it as "read"; everything else — the
// server's write_file first — is refused headless whatever --approve says. A workspace's file
// cannot trust its own servers.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseMcpConfig } from '../../../src/mcp/config.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

const FILES = path.resolve(__dirname, '../../fixtures/mcp/files-server.mjs');
const ROOT = path.resolve(__dirname, '../../..');

interface Result {
  status: string;
  refusals: { tool: string }[];
}

describe('keel run: MCP risk per server and per tool', function () {
  this.timeout(120_000);
  const servers: ModelServer[] = [];
  after(async () => Promise.all(servers.map((s) => s.close())));

  /** One run that asks the server to write, then to read; what ran and what was refused. */
  async function run(risk: Record<string, string> | undefined) {
    const folder = scratchDir('mcp-risk-folder');
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'kept notes');
    const config = path.join(scratchDir('mcp-risk-cfg'), 'mcp.json');
    const files = { command: process.execPath, args: [FILES, folder] };
    fs.writeFileSync(config, JSON.stringify({ servers: { files }, ...(risk ? { risk } : {}) }));
    const model = await startModelServer(
      conversation([
        {
          toolCalls: [
            { name: 'mcp__files__write_file', input: { name: 'notes.txt', text: 'overwritten' } },
            { name: 'mcp__files__read_file', input: { name: 'notes.txt' } },
          ],
        },
        { text: ['Done.'] },
      ]),
    );
    servers.push(model);
    const ws = scratchDir('mcp-risk-ws');
    const args = ['run', '--workspace', ws, '--base-url', model.anthropicBaseURL, '--mcp-config', config, '--output', 'json'];
    const ran = await spawnKeel([...args, '--approve', 'read,write,execute', 'edit the notes'], ROOT, {
      XDG_CONFIG_HOME: scratchDir('mcp-risk-home'),
    });
    const result = JSON.parse(ran.stdout) as Result;
    const toolResults = JSON.stringify(model.requests.at(-1)?.body ?? {});
    return { ran, result, notes: fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8'), toolResults };
  }

  it('refuses write_file under --approve execute; runs read_file the config trusts', async () => {
    const { ran, result, notes, toolResults } = await run({ files: 'read' });
    assert.equal(notes, 'kept notes', 'write_file never ran');
    assert.deepEqual(
      result.refusals.map((r) => r.tool),
      ['mcp__files__write_file'],
    );
    assert.equal(result.status, 'refused');
    assert.equal(ran.code, 3, ran.stderr);
    assert.match(toolResults, /kept notes/, 'read_file ran and its content reached the model');
  });

  it('refuses even a read-only tool the config does not trust', async () => {
    const { result, notes } = await run(undefined);
    assert.equal(notes, 'kept notes');
    assert.deepEqual(result.refusals.map((r) => r.tool).sort(), ['mcp__files__read_file', 'mcp__files__write_file']);
  });

  it('trusting a tool the server does not mark read-only still asks (a tool entry wins over its server)', async () => {
    const { result, notes } = await run({ files: 'execute', 'files/read_file': 'read', 'files/write_file': 'read' });
    assert.equal(notes, 'kept notes');
    assert.deepEqual(
      result.refusals.map((r) => r.tool),
      ['mcp__files__write_file'],
    );
  });

  it("reads risk from the user's files only: a workspace's is a problem and trusts nothing", () => {
    const text = JSON.stringify({ servers: {}, risk: { files: 'read' } });
    const workspace = parseMcpConfig(text, '/w/.vscode/mcp.json', 'workspace');
    assert.deepEqual(workspace.risk ?? {}, {});
    assert.match(workspace.problems[0]?.message ?? '', /"risk" is ignored in a workspace's file/);
    const user = parseMcpConfig(JSON.stringify({ risk: { files: 'read', 'files/x': 'nope' } }), '/u/mcp.json', 'user');
    assert.deepEqual(user.risk, { files: 'read' });
    assert.match(user.problems[0]?.message ?? '', /"risk\.files\/x": expected read, write, execute or network/);
  });
});
