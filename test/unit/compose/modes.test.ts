// Modes in a composed run: Plan and Ask offer only the tools that change nothing, refuse a call
// to any other (even one the policy would run unasked), tell the model the mode with the message,
// and come back from the log on reload; Agent gives every tool back. The mode and a skill's gate
// narrow together.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ComposeInput, composeRuntime } from '../../../src/compose/runtime.js';
import type { Runtime, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

async function workspace(name: string): Promise<{ ws: Workspace; root: string }> {
  const root = path.join(scratchDir(name), 'ws');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\n');
  return { ws: await createNodeWorkspace(root), root };
}

function compose(ws: Workspace, script: Script, more: Pick<ComposeInput, 'events' | 'skills'> = {}) {
  const provider = new ScriptedProvider(script);
  // Writes auto-approved: in Agent mode write_file runs unasked, so only the mode can stop it.
  const runtime = composeRuntime({
    provider,
    settings: { maxTurns: 8, autoApprove: ['read', 'write'], commandsAllow: [], commandsDeny: [] },
    workspace: ws,
    trusted: () => true,
    interactive: false,
    ...more,
  });
  return { runtime, provider };
}

async function drain(runtime: Runtime, input: Parameters<Runtime['send']>[0]): Promise<void> {
  for await (const _ of runtime.send(input)) {
    // drain
  }
}

const toolNames = (p: ScriptedProvider, i: number) => p.requests[i]!.tools.map((t) => t.name);
const observations = (r: Runtime) => r.getEvents().flatMap((e) => (e.type === 'observation' ? [e.observation] : []));

describe('modes', () => {
  it('Plan offers only tools that change nothing, refuses a write, and tells the model the mode', async () => {
    const { ws, root } = await workspace('mode-plan');
    const { runtime, provider } = compose(ws, [toolTurn('write_file', { path: 'a.txt', content: 'changed\n' }), textTurn('plan')]);
    await drain(runtime, { text: 'add a flag', mode: 'plan' });
    const tools = toolNames(provider, 0);
    for (const name of ['read_file', 'search_files', 'todo_write']) assert.ok(tools.includes(name), name);
    for (const name of ['write_file', 'edit_file', 'run_command', 'run_tests']) assert.ok(!tools.includes(name), name);
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'alpha\n', 'nothing changed');
    const refused = observations(runtime)[0]!;
    assert.equal(refused.ok, false);
    assert.match(refused.content, /write_file is not available in Plan mode/);
    // A choice the user made, coded as such (hosts show it neutral, in these words), never a failure to guess from a sentence.
    assert.equal(refused.code, 'blocked_by_mode');
    assert.equal(refused.summary, 'Not run in Plan mode');
    const goal = provider.requests[0]!.messages[0]!;
    assert.ok(goal.role === 'user' && /Plan mode/.test(goal.text) && goal.text.endsWith('add a flag'));
    assert.deepEqual(
      runtime.getEvents().flatMap((e) => (e.type === 'mode_set' ? [e.mode] : [])),
      ['plan'],
      'the mode is an event in the log',
    );
  });

  it('Ask narrows the same way; the mode stays for the next message and comes back on reload', async () => {
    const { ws } = await workspace('mode-ask');
    const first = compose(ws, [textTurn('an answer')]);
    await drain(first.runtime, { text: 'what is a.txt?', mode: 'ask' });
    assert.ok(!toolNames(first.provider, 0).includes('write_file'));
    const events = [...first.runtime.getEvents()];
    const reloaded = compose(ws, [textTurn('another answer')], { events });
    assert.equal(reloaded.runtime.getState().mode, 'ask');
    await drain(reloaded.runtime, 'and b.txt?');
    assert.ok(!toolNames(reloaded.provider, 0).includes('write_file'), 'still Ask after a reload');
    const last = reloaded.provider.requests[0]!.messages.at(-1)!;
    assert.ok(last.role === 'user' && /Ask mode/.test(last.text));
  });

  it('Agent gives every tool back, and a message sent in Agent carries no mode note', async () => {
    const { ws, root } = await workspace('mode-agent');
    const { runtime, provider } = compose(ws, [
      textTurn('the plan'),
      toolTurn('write_file', { path: 'b.txt', content: 'new\n' }),
      textTurn('done'),
    ]);
    await drain(runtime, { text: 'plan it', mode: 'plan' });
    await drain(runtime, { text: 'go ahead', mode: 'agent' });
    assert.ok(toolNames(provider, 1).includes('write_file'));
    assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'new\n');
    const user = provider.requests[1]!.messages.filter((m) => m.role === 'user').at(-1)!;
    assert.ok(user.role === 'user' && user.text === 'go ahead');
  });

  it('a call the picked agent does not use is refused as the agent’s, not as a mistake', async () => {
    const { ws, root } = await workspace('mode-agent-tools');
    const { runtime } = compose(ws, [toolTurn('write_file', { path: 'a.txt', content: 'changed\n' }), textTurn('I can only read.')]);
    const reviewer = { name: 'reviewer', file: '.keel/agents/reviewer.md', instructions: 'Review.', tools: ['read_file'] };
    await drain(runtime, { text: 'fix it', agent: reviewer });
    const refused = observations(runtime)[0]!;
    assert.equal(refused.code, 'blocked_by_agent');
    assert.equal(refused.summary, 'Not run: the agent reviewer does not use this tool');
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'alpha\n');
    const proposed = runtime.getEvents().find((e) => e.type === 'intent_proposed');
    assert.equal(proposed?.type === 'intent_proposed' && proposed.intent.summary, 'a.txt', 'the card says what was not written');
  });

  it('a sub-agent started in Plan gets no tool the mode closed', async () => {
    const { ws, root } = await workspace('mode-delegate');
    const { runtime } = compose(ws, [toolTurn('delegate', { task: 'write b.txt', tools: ['write_file'] }), textTurn('could not')]);
    await drain(runtime, { text: 'plan it', mode: 'plan' });
    const refused = observations(runtime)[0]!;
    assert.equal(refused.ok, false);
    assert.match(refused.content, /"write_file" is not a tool this agent has/);
    assert.ok(!fs.existsSync(path.join(root, 'b.txt')));
  });

  it('narrows together with a skill’s gate: only what both allow is offered', async () => {
    const { ws, root } = await workspace('mode-skill');
    fs.mkdirSync(path.join(root, '.keel/skills/fix'), { recursive: true });
    fs.writeFileSync(
      path.join(root, '.keel/skills/fix/SKILL.md'),
      '---\nname: fix\ndescription: d\ntools: [read_file, write_file]\n---\nFix.\n',
    );
    const { runtime, provider } = compose(ws, [toolTurn('use_skill', { name: 'fix' }), textTurn('ok')], { skills: {} });
    await drain(runtime, { text: 'plan it', mode: 'plan' });
    assert.deepEqual(toolNames(provider, 1).sort(), ['read_file', 'use_skill']);
  });
});
