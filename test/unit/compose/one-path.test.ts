// The CLI and the extension build their runtimes through one composition: for the same folder,
// settings and trust, the model is offered the same tools and shown the same system prompt.
import assert from 'node:assert/strict';
import { parseRunArgs } from '../../../src/cli/args.js';
import { cliRuntime } from '../../../src/cli/run.js';
import { headlessWorkspace } from '../../../src/compose/headless-workspace.js';
import { composePolicy } from '../../../src/compose/runtime.js';
import { MemoryLogStore, type ModelRequest, type Runtime, type ToolIntent } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { allTools } from '../../../src/tools/index.js';
import { writeFileTool } from '../../../src/tools/write-file.js';
import { RuntimeFactory } from '../../../src/host/runtime/runtime-factory.js';
import { readSettings } from '../../../src/host/settings/settings.js';
import { scratchDir } from '../../support/scratch.js';

async function firstRequest(runtime: Runtime, provider: ScriptedProvider): Promise<ModelRequest> {
  for await (const _ of runtime.send('hello')) {
    // drain
  }
  return provider.requests[0]!;
}

describe('compose (one composition path for both hosts)', () => {
  it('gives the CLI and the extension the same tools and the same system prompt', async () => {
    // The CLI's own workspace: code intelligence on syntax trees, and web fetching.
    const workspace = await headlessWorkspace(scratchDir('compose'), { web: { allowHosts: [] } });
    await workspace.writeFile('AGENTS.md', new TextEncoder().encode('Use tabs, never spaces.\n'));
    await workspace.writeFile('.keel/rules/style.md', new TextEncoder().encode('Name things plainly.\n'));
    const cliProvider = new ScriptedProvider([textTurn('ok')]);
    const options = parseRunArgs(['run', '--workspace', workspace.root, 'hello'], workspace.root);
    const cli = cliRuntime(options, { provider: cliProvider, workspace, interactive: false });

    const extProvider = new ScriptedProvider([textTurn('ok')]);
    const factory = new RuntimeFactory({
      settings: () => readSettings(() => undefined),
      workspace,
      grants: { list: () => [], add: () => undefined },
      trusted: () => true,
      lookupKey: async () => ({ kind: 'not_needed' }),
      allowKeyDestination: async () => false,
      secrets: () => [],
      onRequest: () => undefined,
      providerOverride: () => extProvider,
    });
    const ext = factory.create({ taskId: 't', events: [], store: new MemoryLogStore() });

    const [a, b] = [await firstRequest(cli, cliProvider), await firstRequest(ext, extProvider)];
    const names = (r: ModelRequest) => r.tools.map((t) => t.name);
    assert.deepEqual(names(a), names(b));
    // Neither host here has diagnostics or a memory store, so those tools are not offered.
    const notOffered = new Set(['get_diagnostics', 'remember', 'recall', 'forget']);
    // Each task's background-process tools and browser_check (this workspace has a browser) join the shared ones.
    const perTask = ['start_process', 'read_process_output', 'stop_process', 'list_processes', 'browser_check'];
    assert.deepEqual(new Set(names(a)), new Set([...allTools.map((t) => t.name).filter((n) => !notOffered.has(n)), ...perTask]));
    assert.deepEqual(a.tools, b.tools);
    assert.equal(a.system, b.system);
    // Both hosts read the same rules files, in the same order, into that one prompt.
    assert.match(a.system, /--- AGENTS\.md ---\nUse tabs, never spaces\.\n\n--- \.keel\/rules\/style\.md ---\nName things plainly\./);
    assert.match(a.system, new RegExp(`Workspace root: ${workspace.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});

describe('compose: the policy with nobody to ask', () => {
  const settings = { maxTurns: 5, autoApprove: [], commandsAllow: [], commandsDeny: [] };
  const write = (path: string): ToolIntent => ({
    id: 'i1',
    tool: 'write_file',
    input: { path, content: '' },
    providerRef: 'p1',
    summary: `write ${path}`,
    risk: 'write',
    paths: [path],
    status: 'proposed',
  });

  it('refuses what a person must answer (a protected path) and leaves other questions to the host', async () => {
    const workspace = await createNodeWorkspace(scratchDir('compose-policy'));
    const ctx = { tool: writeFileTool, grants: [], workspace };
    const headless = composePolicy({ ...settings, autoApprove: ['write'] }, false);
    const protectedPath = await headless.decide(write('.vscode/tasks.json'), ctx);
    assert.equal(protectedPath.type, 'deny');
    assert.match(protectedPath.reason, /nobody to ask/);
    assert.equal((await composePolicy(settings, false).decide(write('src/a.ts'), ctx)).type, 'ask');
    assert.equal((await composePolicy(settings, true).decide(write('.vscode/tasks.json'), ctx)).type, 'ask');
  });
});
