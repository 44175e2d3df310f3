// The memory index in the system prompt: the count and the few memories that match the task,
// never all of them, read from the host's memory store through the one composition path.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { composeRuntime } from '../../../src/compose/runtime.js';
import type { MemoryAccess, MemoryRecord, Runtime } from '../../../src/kernel/index.js';
import { JsonlMemoryStore } from '../../../src/node/memory-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

const DAY = 24 * 60 * 60 * 1000;

function record(id: string, text: string, paths: string[] = [], expires?: number): MemoryRecord {
  const now = Date.now();
  return {
    id,
    text,
    scope: 'workspace',
    source: { taskId: 'earlier', eventSeq: 1, author: 'user' },
    confidence: 'stated',
    created: now - DAY,
    lastUsed: now - DAY,
    ...(expires !== undefined ? { expires } : {}),
    tags: [],
    paths: paths.map((p) => ({ path: p, hash: null })),
  };
}

async function firstSystem(memory: MemoryAccess | undefined, task: string): Promise<string> {
  const workspace = await createNodeWorkspace(scratchDir('memindex-ws'));
  const provider = new ScriptedProvider([textTurn('ok')]);
  const runtime: Runtime = composeRuntime({
    provider,
    settings: { maxTurns: 5, autoApprove: [], commandsAllow: [], commandsDeny: [] },
    workspace,
    trusted: () => true,
    interactive: false,
    ...(memory ? { memory } : {}),
  });
  for await (const _ of runtime.send(task)) {
    // drain
  }
  return provider.requests[0]!.system;
}

describe('memory index in the system prompt', () => {
  it('counts the live memories and names only the few that match the task', async () => {
    const dir = scratchDir('memindex');
    const store = JsonlMemoryStore.open({ user: path.join(dir, 'user.jsonl'), workspace: path.join(dir, 'ws.jsonl') });
    await store.append(record('m-price', 'Prices are kept in cents.', ['src/price.ts']));
    await store.append(record('m-expired', 'An old note about src/price.ts', ['src/price.ts'], Date.now() - DAY));
    for (let i = 0; i < 9; i++)
      await store.append(record(`m-other-${i}`, `Unrelated note number ${i} about deployment.`, [`docs/d${i}.md`]));

    const system = await firstSystem({ store, taskId: 't1' }, 'Fix the rounding in src/price.ts please');
    assert.match(system, /Memory: 10 memories are kept across tasks; use recall to search them\./);
    assert.match(system, /- \[m-price\] Prices are kept in cents\./);
    assert.doesNotMatch(system, /m-expired/);
    // Never every memory: unrelated ones stay out of the prompt, reachable through recall.
    assert.doesNotMatch(system, /m-other-/);
    const named = system.split('\n').filter((l) => /^- \[m-/.test(l));
    assert.ok(named.length >= 1 && named.length <= 5, `named ${named.length}`);
  });

  it('has no memory lines when the host keeps no memory', async () => {
    assert.doesNotMatch(await firstSystem(undefined, 'hello'), /^Memory:/m);
  });
});
