// Project rules files: which are read, in what order, within what cap, and when a change to
// one reaches the model (the next task, never the running one).
import assert from 'node:assert/strict';
import { composeRuntime } from '../../../src/compose/runtime.js';
import { loadRules, RULES_TOKEN_CAP } from '../../../src/compose/rules.js';
import { type LogStore, MemoryLogStore, type Runtime, type RuntimeEvent, type Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { protectedReason } from '../../../src/tools/policy/protected-paths.js';
import { scratchDir } from '../../support/scratch.js';

const put = (ws: Workspace, path: string, text: string) => ws.writeFile(path, new TextEncoder().encode(text));

async function drain(runtime: Runtime, text: string): Promise<void> {
  for await (const _ of runtime.send(text)) {
    // drain
  }
}

describe('rules files', () => {
  it('puts nested AGENTS.md nearest first, the root one after, then .keel/rules by name', async () => {
    const ws = await createNodeWorkspace(scratchDir('rules-order'));
    await put(ws, 'AGENTS.md', 'root');
    await put(ws, 'src/AGENTS.md', 'src');
    await put(ws, 'src/ui/AGENTS.md', 'ui');
    await put(ws, '.keel/rules/b.md', 'b');
    await put(ws, '.keel/rules/a.md', 'a');
    await put(ws, '.keel/rules/notes.txt', 'not markdown');
    const files = await loadRules(ws, ['src/ui/button.ts']);
    assert.deepEqual(
      files.map((f) => [f.path, f.text]),
      [
        ['src/ui/AGENTS.md', 'ui'],
        ['src/AGENTS.md', 'src'],
        ['AGENTS.md', 'root'],
        ['.keel/rules/a.md', 'a'],
        ['.keel/rules/b.md', 'b'],
      ],
    );
    // Without touched files only the root and .keel/rules are read; none at all is no section.
    assert.deepEqual(
      (await loadRules(ws, [])).map((f) => f.path),
      ['AGENTS.md', '.keel/rules/a.md', '.keel/rules/b.md'],
    );
    assert.deepEqual(await loadRules(await createNodeWorkspace(scratchDir('rules-none')), ['x/y.ts']), []);
  });

  it('cuts the file that crosses the cap and says so in the prompt', async () => {
    const ws = await createNodeWorkspace(scratchDir('rules-cap'));
    await put(ws, 'AGENTS.md', 'a'.repeat(30));
    await put(ws, '.keel/rules/long.md', 'b'.repeat(50));
    const files = await loadRules(ws, [], 10); // 40 characters in all
    assert.deepEqual(
      files.map((f) => [f.path, f.text.length, f.cutChars]),
      [
        ['AGENTS.md', 30, 0],
        ['.keel/rules/long.md', 10, 40],
      ],
    );

    await put(ws, 'AGENTS.md', 'x'.repeat(RULES_TOKEN_CAP * 4 + 100));
    const provider = new ScriptedProvider([textTurn('ok')]);
    await drain(compose(ws, provider), 'hi');
    const system = provider.requests[0]!.system;
    assert.match(system, /--- AGENTS\.md ---/);
    assert.match(system, /Keel cut this file here: its other 100 characters are over the cap/);
    assert.match(system, /--- \.keel\/rules\/long\.md ---\n\n?\[Keel cut this file here: its other 50 characters/);
  });

  it('keeps the running task on the rules it started with; the next task reads the change', async () => {
    const ws = await createNodeWorkspace(scratchDir('rules-stable'));
    await put(ws, 'AGENTS.md', 'first rule');
    const provider = new ScriptedProvider([textTurn('one'), textTurn('two'), textTurn('three')]);
    const task = compose(ws, provider);
    await drain(task, 'hi');
    await put(ws, 'AGENTS.md', 'second rule');
    await drain(task, 'again');
    const [a, b] = provider.requests;
    assert.equal(a!.system, b!.system);
    assert.match(b!.system, /first rule/);

    await drain(compose(ws, provider), 'new task');
    assert.match(provider.requests[2]!.system, /second rule/);
  });

  it('records which rules files the task used, once, and again only when a reopened task reads others', async () => {
    const ws = await createNodeWorkspace(scratchDir('rules-used'));
    await put(ws, 'AGENTS.md', 'root');
    await put(ws, '.keel/rules/style.md', 'style');
    const store = new MemoryLogStore();
    const task = compose(ws, new ScriptedProvider([textTurn('one'), textTurn('two')]), store);
    await drain(task, 'hi');
    await drain(task, 'again');
    assert.deepEqual(task.getState().rules, ['AGENTS.md', '.keel/rules/style.md']);
    const used = () => store.events.filter((e) => e.type === 'rules_used');
    assert.equal(used().length, 1);

    // Reopened with the same files: nothing new logged. With a file gone: the new list is.
    const reopened = () => compose(ws, new ScriptedProvider([textTurn('three')]), store, [...store.events]);
    await drain(reopened(), 'more');
    assert.equal(used().length, 1);
    await ws.writeFile('.keel/rules/style.md', new Uint8Array());
    const later = reopened();
    await drain(later, 'more');
    assert.deepEqual(later.getState().rules, ['AGENTS.md']);
    assert.equal(used().length, 2);
  });

  it('protects rules files: writing one asks even with writes auto-approved', () => {
    for (const path of ['AGENTS.md', 'src/deep/AGENTS.md', '.keel/rules/style.md']) assert.ok(protectedReason(path), path);
    assert.equal(protectedReason('docs/agents-guide.md'), undefined);
  });
});

function compose(workspace: Workspace, provider: ScriptedProvider, store?: LogStore, events?: RuntimeEvent[]): Runtime {
  return composeRuntime({
    ...(store ? { store } : {}),
    ...(events ? { events } : {}),
    provider,
    settings: { maxTurns: 5, autoApprove: [], commandsAllow: [], commandsDeny: [] },
    workspace,
    trusted: () => true,
    interactive: false,
  });
}
