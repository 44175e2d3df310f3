import assert from 'node:assert/strict';
import { MemoryLogStore, type ModelRequest } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { RuntimeFactory } from '../../../src/host/runtime/runtime-factory.js';
import { readSettings } from '../../../src/host/settings/settings.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { scratchDir } from '../../support/scratch.js';
import { parseA2aConfig } from '../../../src/a2a/index.js';

describe('host/runtime-factory (workspace trust, settings per task)', () => {
  it('offers no tool that writes or executes while untrusted, and all of them once trusted', async () => {
    let trusted = false;
    let provider = new ScriptedProvider([textTurn('a'), textTurn('b')]);
    const requests: ModelRequest[] = [];
    const factory = new RuntimeFactory({
      settings: () => readSettings(() => undefined),
      workspace: await createNodeWorkspace(scratchDir('factory-trust')),
      grants: { list: () => [], add: () => undefined },
      trusted: () => trusted,
      lookupKey: async () => ({ kind: 'not_needed' }),
      allowKeyDestination: async () => false,
      secrets: () => [],
      onRequest: (_id, r) => requests.push(r),
      providerOverride: () => provider,
    });
    const rt = factory.create({ taskId: 't1', events: [], store: new MemoryLogStore() });
    for await (const _ of rt.send('hi')) {
      // drain
    }
    const untrustedTools = requests[0]!.tools.map((t) => t.name);
    assert.ok(untrustedTools.includes('read_file'));
    for (const name of ['edit_file', 'write_file', 'run_command', 'run_tests']) assert.ok(!untrustedTools.includes(name), name);
    assert.match(requests[0]!.system, /Restricted Mode/);

    trusted = true;
    for await (const _ of rt.send('again')) {
      // drain
    }
    const trustedTools = requests[1]!.tools.map((t) => t.name);
    for (const name of ['edit_file', 'write_file', 'run_command', 'run_tests']) assert.ok(trustedTools.includes(name), name);
    assert.equal(factory.model('t1').contextWindow, provider.capabilities.contextWindow);
    provider = new ScriptedProvider([]);
  });

  it('builds a runtime per task from the settings of the moment and knows its model (window and price)', () => {
    let maxTurns = 3;
    const factory = new RuntimeFactory({
      settings: () => readSettings((k) => ({ globalValue: k === 'maxTurns' ? maxTurns : k === 'provider' ? 'openai' : undefined })),
      workspace: undefined,
      grants: { list: () => [], add: () => undefined },
      trusted: () => true,
      lookupKey: async () => ({ kind: 'found', key: 'k', source: 'env' }),
      allowKeyDestination: async () => false,
      secrets: () => ['k'],
      onRequest: () => undefined,
    });
    const a = factory.create({ taskId: 'a', events: [], store: new MemoryLogStore() });
    maxTurns = 9;
    const b = factory.create({ taskId: 'b', events: [], store: new MemoryLogStore() });
    assert.notEqual(a, b);
    assert.equal(factory.model('a').contextWindow > 0, true);
    assert.equal(factory.model('a').price?.input, 2.5, 'the default openai model (gpt-4o) is priced');
    assert.deepEqual(factory.model('missing'), { contextWindow: 0, price: undefined });
  });

  it('offers delegate_remote on a new task when the host gives A2A agents (the user’s, or approved ones)', async () => {
    const requests: ModelRequest[] = [];
    let agents = parseA2aConfig(JSON.stringify({ agents: { helper: { url: 'http://127.0.0.1:9/' } } }), 'a2a.json', 'user').agents;
    const factory = new RuntimeFactory({
      settings: () => readSettings(() => undefined),
      workspace: await createNodeWorkspace(scratchDir('factory-a2a')),
      grants: { list: () => [], add: () => undefined },
      trusted: () => true,
      lookupKey: async () => ({ kind: 'not_needed' }),
      allowKeyDestination: async () => false,
      secrets: () => [],
      onRequest: (_id, r) => requests.push(r),
      providerOverride: () => new ScriptedProvider([textTurn('a')]),
      a2a: () => agents,
    });
    const offered = async (taskId: string) => {
      for await (const _ of factory.create({ taskId, events: [], store: new MemoryLogStore() }).send('hi')) {
        // drain
      }
      return requests.at(-1)!.tools.map((t) => t.name);
    };
    assert.ok((await offered('a')).includes('delegate_remote'));
    agents = [];
    assert.ok(!(await offered('b')).includes('delegate_remote'));
  });
});
