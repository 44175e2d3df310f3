// Skills in a run: the prompt names them (names and descriptions only), use_skill loads one,
// and a skill that lists its tools gates the run to them — in the request and in the runtime,
// across a reload of the task's log. An untrusted workspace's skills are not loaded.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime } from '../../../src/compose/runtime.js';
import type { SkillProblem } from '../../../src/compose/skills/load-skills.js';
import { MemoryLogStore, type ModelEvent, type Runtime, type RuntimeEvent, type Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

function writeSkill(dir: string, name: string, front: string, body = 'SECRET-INSTRUCTIONS', extra: Record<string, string> = {}): void {
  fs.mkdirSync(path.join(dir, name), { recursive: true });
  fs.writeFileSync(path.join(dir, name, 'SKILL.md'), `---\nname: ${name}\n${front}\n---\n${body}\n`);
  for (const [rel, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, name, rel), text);
}

async function drain(runtime: Runtime, text?: string): Promise<void> {
  for await (const _ of text === undefined ? runtime.resume() : runtime.send(text)) {
    // drain
  }
}

interface Setup {
  ws: Workspace;
  root: string;
  userDir: string;
}

async function setup(name: string): Promise<Setup> {
  const base = scratchDir(name);
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  return { ws: await createNodeWorkspace(root), root, userDir: path.join(base, 'user-skills') };
}

function compose(
  s: Setup,
  provider: ScriptedProvider,
  o: { trusted?: boolean; events?: RuntimeEvent[]; store?: MemoryLogStore; problems?: SkillProblem[] } = {},
) {
  return composeRuntime({
    provider,
    settings: { maxTurns: 8, autoApprove: ['read', 'write'], commandsAllow: [], commandsDeny: [] },
    workspace: s.ws,
    trusted: () => o.trusted ?? true,
    interactive: false,
    ...(o.store ? { store: o.store } : {}),
    ...(o.events ? { events: o.events } : {}),
    skills: { user: userSkillFolder(s.userDir), report: (p) => o.problems?.push(...p) },
  });
}

const toolNames = (p: ScriptedProvider, i: number) => p.requests[i]!.tools.map((t) => t.name).sort();
const observations = (r: Runtime) => r.getEvents().flatMap((e) => (e.type === 'observation' ? [e.observation] : []));

describe('skills in a run', () => {
  it('puts only names and descriptions in the prompt; use_skill brings the instructions and resources', async () => {
    const s = await setup('skills-prompt');
    writeSkill(path.join(s.root, '.keel/skills'), 'release-notes', 'description: Write release notes.', 'Group by Features.', {
      'style.md': 'STYLE-GUIDE',
    });
    writeSkill(s.userDir, 'my-review', 'description: Review like I do.');
    const provider = new ScriptedProvider([
      toolTurn('use_skill', { name: 'release-notes' }),
      toolTurn('use_skill', { name: 'release-notes', resource: 'style.md' }, '', 'call_2'),
      toolTurn('use_skill', { name: 'release-notes', resource: '../my-review/SKILL.md' }, '', 'call_3'),
      textTurn('done'),
    ]);
    const runtime = compose(s, provider);
    await drain(runtime, 'write the notes');
    const system = provider.requests[0]!.system;
    assert.match(system, /- my-review: Review like I do\./);
    assert.match(system, /- release-notes: Write release notes\./);
    assert.doesNotMatch(system, /SECRET-INSTRUCTIONS|Group by Features/);
    assert.ok(toolNames(provider, 0).includes('use_skill'));
    const [loaded, resource, outside] = observations(runtime);
    assert.ok(loaded!.ok && loaded!.content.includes('Group by Features.') && loaded!.content.includes('- style.md'), loaded!.content);
    assert.ok(resource!.ok && resource!.content.includes('STYLE-GUIDE'));
    assert.equal(outside!.ok, false);
    assert.equal(outside!.code, 'not_found');
    // A skill without a tool list gates nothing.
    assert.deepEqual(toolNames(provider, 1), toolNames(provider, 0));
  });

  it('gates a run to the tools a skill lists plus use_skill, refuses other calls, and keeps the gate on reload', async () => {
    const s = await setup('skills-gate');
    writeSkill(path.join(s.root, '.keel/skills'), 'read-only', 'description: Look, do not touch.\ntools: [read_file]');
    fs.writeFileSync(path.join(s.root, 'a.txt'), 'hello');
    const store = new MemoryLogStore();
    const provider = new ScriptedProvider([
      toolTurn('use_skill', { name: 'read-only' }),
      toolTurn('write_file', { path: 'b.txt', content: 'x' }, '', 'call_w'),
      toolTurn('read_file', { path: 'a.txt' }, '', 'call_r'),
      textTurn('done'),
    ]);
    const runtime = compose(s, provider, { store });
    await drain(runtime, 'look at a.txt');
    assert.ok(toolNames(provider, 0).includes('write_file'));
    assert.deepEqual(toolNames(provider, 1), ['read_file', 'use_skill']);
    const [, write, read] = observations(runtime);
    assert.equal(write!.ok, false);
    assert.match(write!.content, /write_file is not available while the skill "read-only" is active; it allows only: read_file, use_skill/);
    assert.equal(fs.existsSync(path.join(s.root, 'b.txt')), false);
    assert.equal(read!.ok, true);

    // The task reloaded from its log, interrupted right after use_skill: the resumed run is still gated.
    const cut = store.events.findIndex((e) => e.type === 'observation');
    const resumed = new ScriptedProvider([textTurn('resumed')]);
    const reopened = compose(s, resumed, { events: store.events.slice(0, cut + 1) });
    assert.ok(reopened.interrupted);
    await drain(reopened);
    assert.deepEqual(toolNames(resumed, 0), ['read_file', 'use_skill']);
    assert.deepEqual(reopened.getState().skills.names, ['read-only']);

    // The next message starts a new run without the gate.
    const next = new ScriptedProvider([textTurn('ok')]);
    const again = compose(s, next, { events: [...store.events] });
    await drain(again, 'now fix it');
    assert.ok(toolNames(next, 0).includes('write_file'));
  });

  it('refuses a call made in the same turn as the use_skill that closed its tool', async () => {
    const s = await setup('skills-same-turn');
    writeSkill(path.join(s.root, '.keel/skills'), 'narrow', 'description: d\ntools: []');
    const turn: ModelEvent[] = [
      { type: 'tool_intent', providerRef: 'c1', tool: 'use_skill', input: { name: 'narrow' } },
      { type: 'tool_intent', providerRef: 'c2', tool: 'write_file', input: { path: 'x.txt', content: 'x' } },
      { type: 'final', stopReason: 'tool_intent' },
    ];
    const provider = new ScriptedProvider([turn, textTurn('done')]);
    const runtime = compose(s, provider);
    await drain(runtime, 'go');
    const [, write] = observations(runtime);
    assert.equal(write!.code, 'blocked_by_skill');
    assert.equal(write!.summary, 'Not run: the skill "narrow" does not use this tool');
    assert.equal(fs.existsSync(path.join(s.root, 'x.txt')), false);
    assert.deepEqual(toolNames(provider, 1), ['use_skill']);
  });

  it('never widens: a second skill narrows the gate, and a listed tool the run does not offer stays hidden', async () => {
    const s = await setup('skills-narrow');
    const dir = path.join(s.root, '.keel/skills');
    writeSkill(dir, 'first', 'description: d\ntools: [read_file, list_files, write_file]');
    writeSkill(dir, 'second', 'description: d\ntools: [read_file, run_command]');
    const provider = new ScriptedProvider([
      toolTurn('use_skill', { name: 'first' }),
      toolTurn('use_skill', { name: 'second' }, '', 'c2'),
      textTurn('done'),
    ]);
    // Restricted Mode: write_file and run_command are not offered whatever a skill says (user skills only: see below).
    fs.mkdirSync(s.userDir, { recursive: true });
    fs.cpSync(dir, s.userDir, { recursive: true });
    const runtime = compose(s, provider, { trusted: false });
    await drain(runtime, 'go');
    assert.deepEqual(toolNames(provider, 1), ['list_files', 'read_file', 'use_skill']);
    assert.deepEqual(toolNames(provider, 2), ['read_file', 'use_skill']);
  });

  it("does not load an untrusted workspace's skills; the user's still load", async () => {
    const s = await setup('skills-untrusted');
    writeSkill(path.join(s.root, '.keel/skills'), 'planted', 'description: From the repository.');
    writeSkill(s.userDir, 'mine', 'description: My own.');
    const provider = new ScriptedProvider([toolTurn('use_skill', { name: 'planted' }), textTurn('done')]);
    const runtime = compose(s, provider, { trusted: false });
    await drain(runtime, 'go');
    assert.doesNotMatch(provider.requests[0]!.system, /planted/);
    assert.match(provider.requests[0]!.system, /- mine: My own\./);
    assert.equal(observations(runtime)[0]!.code, 'not_found');
  });

  it('reports a skipped skill and offers no use_skill when there is no skill', async () => {
    const s = await setup('skills-none');
    fs.mkdirSync(path.join(s.root, '.keel/skills/bad'), { recursive: true });
    fs.writeFileSync(path.join(s.root, '.keel/skills/bad/SKILL.md'), '---\nname: bad\n---\n');
    const problems: SkillProblem[] = [];
    const provider = new ScriptedProvider([textTurn('done')]);
    await drain(compose(s, provider, { problems }), 'go');
    assert.ok(!toolNames(provider, 0).includes('use_skill'));
    assert.doesNotMatch(provider.requests[0]!.system, /Skills \(/);
    assert.deepEqual(
      problems.map((p) => [p.file, p.line]),
      [['.keel/skills/bad/SKILL.md', 2]],
    );
  });
});
