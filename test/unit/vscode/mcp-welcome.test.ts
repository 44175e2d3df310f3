// The MCP Servers view with no server: its welcome says what a server is for, where one is
// added (the two files Keel reads) and offers Add MCP Server, a command the extension declares
// and registers.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { viewsWelcome: { view: string; contents: string }[]; commands: { command: string }[] };
};

describe('vscode: the empty MCP Servers view', () => {
  it('says how to add a server and links a declared, registered command', () => {
    const welcome = manifest.contributes.viewsWelcome.find((w) => w.view === 'keel.mcpServers');
    assert.ok(welcome, 'the empty view has guidance');
    assert.match(welcome.contents, /\.vscode\/mcp\.json/);
    assert.match(welcome.contents, /~\/\.config\/keel\/mcp\.json/);
    const links = [...welcome.contents.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);
    assert.deepEqual(links, ['keel.mcp.addServer']);
    assert.ok(
      manifest.contributes.commands.some((c) => c.command === 'keel.mcp.addServer'),
      'declared',
    );
    const view = fs.readFileSync(path.join(ROOT, 'src/vscode/mcp/mcp-view.ts'), 'utf8');
    assert.match(view, /registerCommand\('keel\.mcp\.addServer'/, 'registered');
  });
});
