// `keel run` gets the workspace's memory store under the user's config folder: the model is
// offered remember/recall/forget, and what it remembers is what `keel memory list` shows.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { parseRunArgs } from '../../../src/cli/args.js';
import { runMemoryCommand } from '../../../src/cli/memory-command.js';
import { cliMemory, cliRuntime } from '../../../src/cli/run.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { drain } from '../kernel/helpers.js';

describe('keel run with memory', () => {
  let dir: string;
  let ws: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-runmem-'));
    ws = fs.mkdtempSync(path.join(dir, 'ws-'));
    env = { XDG_CONFIG_HOME: path.join(dir, 'config') };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('offers the memory tools and keeps what the model remembers where keel memory list reads it', async () => {
    const workspace = await createNodeWorkspace(ws);
    const provider = new ScriptedProvider([toolTurn('remember', { text: 'Build with make.' }), textTurn('ok')]);
    const options = parseRunArgs(['run', '--workspace', ws, 'note how to build'], ws);
    const memory = cliMemory(ws, { env, stderr: process.stderr }, 'cli-test-task')!;
    const runtime = cliRuntime(options, { provider, workspace, interactive: true, memory });
    await drain(runtime.send(options.task), (id) => runtime.approve(id));

    const offered = provider.requests[0]!.tools.map((t) => t.name);
    for (const name of ['remember', 'recall', 'forget']) assert.ok(offered.includes(name), name);
    assert.match(provider.requests[0]!.system, /remember/);
    assert.ok(!fs.readdirSync(ws).length, 'nothing is written into the workspace');

    const out = new PassThrough();
    let listed = '';
    out.on('data', (c) => (listed += c));
    await runMemoryCommand(['list'], { stdout: out, cwd: ws, env });
    assert.match(listed, /Build with make\./);
    assert.match(listed, new RegExp(memory.taskId));
  });
});
