// mcp.json as VS Code writes it: JSONC, servers checked one by one, a bad one named with its
// file while the others load, and the exact line and definition an approval is about.
import assert from 'node:assert/strict';
import { definitionKey, describeServer, mergeMcpConfigs, parseMcpConfig } from '../../../src/mcp/index.js';

describe('mcp config', () => {
  it('reads stdio and http servers from JSONC, with defaults', () => {
    const text = `{
      // a comment
      "servers": {
        "files": { "type": "stdio", "command": "npx", "args": ["-y", "some server"], },
        "web": { "type": "http", "url": "http://127.0.0.1:3000/mcp", "headers": { "X-Key": "v" } },
        "bare": { "command": "node" },
      },
    }`;
    const parsed = parseMcpConfig(text, '/u/mcp.json', 'user');
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.servers.map((s) => [s.name, s.source, s.file]),
      [
        ['files', 'user', '/u/mcp.json'],
        ['web', 'user', '/u/mcp.json'],
        ['bare', 'user', '/u/mcp.json'],
      ],
    );
    assert.equal(describeServer(parsed.servers[0]!.definition), "npx -y 'some server'");
    assert.equal(describeServer(parsed.servers[1]!.definition), 'http://127.0.0.1:3000/mcp');
    assert.deepEqual(parsed.servers[2]!.definition, { command: 'node', args: [], env: {} });
  });

  it('shows the variables and folder a stdio server sets in the line approved: they change what runs', () => {
    const text = JSON.stringify({
      servers: { s: { command: 'node', args: ['server.js'], env: { NODE_OPTIONS: '--require ./x.js', MODE: 'fast' }, cwd: 'tools dir' } },
    });
    const [server] = parseMcpConfig(text, '/w/.vscode/mcp.json', 'workspace').servers;
    assert.equal(describeServer(server!.definition), "cd 'tools dir' && NODE_OPTIONS='--require ./x.js' MODE=fast node server.js");
  });

  it('names the file and the server of a bad entry, and still loads the others', () => {
    const text = JSON.stringify({
      servers: {
        good: { command: 'node' },
        noCommand: { type: 'stdio', args: [] },
        badUrl: { type: 'http', url: 'file:///etc/passwd' },
        extra: { command: 'node', shell: true },
      },
    });
    const parsed = parseMcpConfig(text, '/w/.vscode/mcp.json', 'workspace');
    assert.deepEqual(
      parsed.servers.map((s) => s.name),
      ['good'],
    );
    assert.deepEqual(
      parsed.problems.map((p) => [p.file, p.server]),
      [
        ['/w/.vscode/mcp.json', 'noCommand'],
        ['/w/.vscode/mcp.json', 'badUrl'],
        ['/w/.vscode/mcp.json', 'extra'],
      ],
    );
    assert.ok(parsed.problems.every((p) => p.message.length > 0));
  });

  it('reports a file that is not JSON, and ignores one without servers', () => {
    assert.equal(parseMcpConfig('{ nope', 'f', 'user').problems[0]?.file, 'f');
    assert.deepEqual(parseMcpConfig('{"inputs": []}', 'f', 'user'), { servers: [], problems: [] });
    assert.equal(parseMcpConfig('{"servers": []}', 'f', 'user').problems.length, 1);
  });

  it("keeps the user's server when the workspace defines the same name", () => {
    const user = parseMcpConfig('{"servers":{"a":{"command":"mine"}}}', 'u', 'user');
    const ws = parseMcpConfig('{"servers":{"a":{"command":"theirs"}}}', 'w', 'workspace');
    const merged = mergeMcpConfigs([user, ws]);
    assert.deepEqual(
      merged.servers.map((s) => [s.name, s.source]),
      [['a', 'user']],
    );
    assert.equal(merged.problems[0]?.server, 'a');
    assert.equal(merged.problems[0]?.file, 'w');
  });

  it('gives a changed definition a different key (an approval does not carry over)', () => {
    const a = parseMcpConfig('{"servers":{"s":{"command":"node","args":["x"],"env":{"A":"1","B":"2"}}}}', 'f', 'workspace').servers[0]!;
    const reordered = parseMcpConfig('{"servers":{"s":{"env":{"B":"2","A":"1"},"args":["x"],"command":"node"}}}', 'f', 'workspace')
      .servers[0]!;
    const changed = parseMcpConfig('{"servers":{"s":{"command":"node","args":["y"],"env":{"A":"1","B":"2"}}}}', 'f', 'workspace')
      .servers[0]!;
    assert.equal(definitionKey(a), definitionKey(reordered));
    assert.notEqual(definitionKey(a), definitionKey(changed));
  });
});
