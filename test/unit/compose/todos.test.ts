// The to-do list in a composed run: todo_write runs unasked under the real policy (it changes no
// file), replaces the list whole, refuses a list with two items in progress, is read back by
// todo_read, is carried by the ledger into the stable prefix when its call is folded away, and
// comes back when the task's log is replayed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime } from '../../../src/compose/runtime.js';
import { replay, type Runtime, type RuntimeEvent, type TodoItem, type Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

const PLAN: TodoItem[] = [
  { id: '1', text: 'Find where the parser reads numbers', status: 'done' },
  { id: '2', text: 'Handle negative exponents in parseNumber', status: 'in_progress' },
  { id: '3', text: 'Add a test for 1e-3', status: 'pending' },
];

async function workspace(name: string): Promise<Workspace> {
  const root = path.join(scratchDir(name), 'ws');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'parse.ts'), 'export const parseNumber = Number;\n');
  return createNodeWorkspace(root);
}

function compose(ws: Workspace, script: Script, events?: RuntimeEvent[]) {
  const provider = new ScriptedProvider(script);
  // Nothing auto-approved and nobody to ask: only what the policy lets run unasked runs.
  const runtime = composeRuntime({
    provider,
    settings: { maxTurns: 8, autoApprove: [], commandsAllow: [], commandsDeny: [] },
    workspace: ws,
    trusted: () => true,
    interactive: false,
    ...(events ? { events } : {}),
  });
  return { runtime, provider };
}

async function drain(runtime: Runtime, text: string): Promise<void> {
  for await (const _ of runtime.send(text)) {
    // drain
  }
}

const observations = (r: Runtime) => r.getEvents().flatMap((e) => (e.type === 'observation' ? [e.observation] : []));

describe('todo_write and todo_read', () => {
  it('runs unasked, replaces the list whole, and todo_read reads it back', async () => {
    const ws = await workspace('todos-write');
    const first = PLAN.map((t) => ({ ...t, status: 'pending' as const }));
    const { runtime } = compose(ws, [
      toolTurn('todo_write', { todos: first }),
      toolTurn('todo_write', { todos: PLAN }, '', 'call_2'),
      toolTurn('todo_read', {}, '', 'call_3'),
      textTurn('working on it'),
    ]);
    await drain(runtime, 'fix the parser');
    const events = runtime.getEvents();
    assert.equal(events.filter((e) => e.type === 'approval_requested').length, 0, 'nothing asked');
    assert.ok(events.some((e) => e.type === 'intent_approved' && e.auto));
    assert.deepEqual(runtime.getState().ledger.todos, PLAN);
    const read = observations(runtime)[2]!;
    assert.ok(read.ok);
    assert.match(read.content, /\[in_progress\] 2: Handle negative exponents/);
    assert.equal(read.facts, undefined, 'a read adds no fact');
  });

  it('refuses a list with two items in progress, or an id used twice, and keeps the list it had', async () => {
    const ws = await workspace('todos-refused');
    const two = PLAN.map((t) => ({ ...t, status: 'in_progress' as const }));
    const twice = [PLAN[0]!, { ...PLAN[1]!, id: '1' }];
    const { runtime } = compose(ws, [
      toolTurn('todo_write', { todos: PLAN }),
      toolTurn('todo_write', { todos: two }, '', 'call_2'),
      toolTurn('todo_write', { todos: twice }, '', 'call_3'),
      textTurn('ok'),
    ]);
    await drain(runtime, 'fix the parser');
    const [, inProgress, duplicate] = observations(runtime);
    assert.equal(inProgress!.ok, false);
    assert.equal(inProgress!.code, 'invalid_input');
    assert.match(inProgress!.content, /Only one item may be in_progress.*1, 2, 3/);
    assert.match(duplicate!.content, /The id "1" is used twice/);
    assert.deepEqual(runtime.getState().ledger.todos, PLAN);
  });

  it('keeps the open items in the stable prefix after the call that wrote them is folded', async () => {
    const ws = await workspace('todos-fold');
    const { runtime } = compose(ws, [
      toolTurn('todo_write', { todos: PLAN }),
      toolTurn('read_file', { path: 'parse.ts' }, '', 'call_2'),
      textTurn('the parser reads numbers with Number'),
    ]);
    await drain(runtime, 'fix the parser');
    assert.equal(await runtime.fold(), 'folded');
    const request = runtime.preview();
    const prefix = JSON.stringify(request.messages.slice(0, request.stablePrefix));
    const live = request.messages.slice(request.stablePrefix);
    assert.ok(
      live.every((m) => m.role !== 'assistant' || m.toolCalls.every((c) => c.tool !== 'todo_write')),
      'the call is folded away',
    );
    for (const item of PLAN) assert.ok(prefix.includes(item.text), `the prefix holds "${item.text}"`);
    assert.match(prefix, /\[>\] 2: `Handle negative exponents/);
    assert.match(prefix, /\[x\] 1: `Find where/);
  });

  it('comes back when the log is replayed (a reload)', async () => {
    const ws = await workspace('todos-replay');
    const { runtime } = compose(ws, [toolTurn('todo_write', { todos: PLAN }), textTurn('planned')]);
    await drain(runtime, 'plan it');
    const events = [...runtime.getEvents()];
    assert.deepEqual(replay(events).ledger.todos, PLAN);
    const reloaded = compose(ws, [], events).runtime;
    assert.deepEqual(reloaded.getState().ledger.todos, PLAN);
  });
});
