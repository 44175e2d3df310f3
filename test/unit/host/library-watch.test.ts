// Agent, command, prompt and MCP files picked up without a window reload: the watcher's globs
// cover every folder a task reads them from, a burst of file events reloads once with every kind
// it held, the session's lists follow a new agent file, and the MCP hub follows its config.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { createMcpHub } from '../../../src/compose/index.js';
import { listAgents } from '../../../src/compose/runtime.js';
import {
  type LibraryChange,
  libraryDebounce,
  WORKSPACE_LIBRARY_GLOB,
  WORKSPACE_MCP_GLOB,
} from '../../../src/host/settings/library-files.js';
import type { McpServerConfig } from '../../../src/mcp/index.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import type { SessionSnapshot } from '../../../src/protocol/index.js';
import { composedSessionWorld, sessionIdle } from '../../support/composed-session.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('host: agent, command and MCP files picked up as they change', () => {
  it('watches every folder agents, commands and prompt files are read from, and .vscode/mcp.json', () => {
    const library = picomatch(WORKSPACE_LIBRARY_GLOB, { dot: true });
    for (const file of [
      '.keel/agents/a.md',
      '.claude/agents/a.md',
      '.github/agents/a.agent.md',
      '.keel/commands/c.md',
      '.claude/commands/c.md',
      '.github/prompts/p.prompt.md',
    ])
      assert.ok(library(file), file);
    assert.ok(!library('src/agents/a.md'), 'not every folder named agents');
    assert.ok(picomatch(WORKSPACE_MCP_GLOB, { dot: true })('.vscode/mcp.json'));
  });

  it('reloads once after a burst of events, with every kind the burst held', async () => {
    const flushed: LibraryChange[][] = [];
    const d = libraryDebounce((kinds) => flushed.push([...kinds].sort()), 30);
    d.changed('library');
    d.changed('library');
    await wait(10);
    d.changed('mcp');
    d.changed('library');
    assert.deepEqual(flushed, [], 'nothing while the burst lasts');
    await wait(80);
    assert.deepEqual(flushed, [['library', 'mcp']]);
    d.changed('library');
    d.dispose();
    await wait(60);
    assert.equal(flushed.length, 1, 'a disposed watcher reloads nothing');
  });

  it('lists an agent file added after a task ran, once the change is told, and runs as it', async () => {
    const w = await composedSessionWorld({
      name: 'library-watch',
      files: { '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews.\n---\nREVIEW\n' },
      reply: 'ok',
      folders: (base, ws) => {
        const agents = { user: userSkillFolder(path.join(base, 'user-agents')) };
        return { compose: { agents }, deps: { agents: () => listAgents({ agents, workspace: ws, trusted: () => true }) } };
      },
    });
    const task = await w.session.send('hello');
    await sessionIdle(w.session);
    assert.ok(task);
    fs.writeFileSync(path.join(w.root, '.claude/agents/tester.md'), '---\nname: tester\ndescription: Tests.\n---\nTEST-HARD\n');
    await w.session.settingsChanged();
    await w.session.ready();
    const snap = w.posted.filter((m): m is SessionSnapshot => (m as SessionSnapshot).type === 'session/snapshot').at(-1)!;
    assert.deepEqual(
      snap.hints.agents?.map((a) => a.name),
      ['reviewer', 'tester'],
    );
    await w.session.send('test it', { agent: 'tester' });
    await sessionIdle(w.session);
    assert.deepEqual(w.refused, []);
    assert.match(w.providers.at(-1)!.requests.at(-1)!.system, /TEST-HARD/);
  });

  it('the MCP hub follows its config: a removed server stops, a new one is listed', async () => {
    const server = (name: string, arg: string): McpServerConfig => ({
      name,
      source: 'workspace',
      file: '.vscode/mcp.json',
      definition: { command: process.execPath, args: [arg], env: {} },
    });
    const hub = createMcpHub([server('one', 'a.js')], { mayStart: () => false, riskOverrides: () => ({}) });
    await hub.startAll();
    assert.deepEqual(
      hub.status().map((s) => [s.name, s.state]),
      [['one', 'awaiting_approval']],
    );
    await hub.reconfigure([server('two', 'b.js')]);
    assert.deepEqual(
      hub.status().map((s) => [s.name, s.state]),
      [['two', 'awaiting_approval']],
    );
    await hub.reconfigure([server('two', 'c.js')]);
    assert.match(hub.status()[0]!.line, /c\.js/, 'an edited definition is the new one');
    await hub.dispose();
  });
});
