// Custom agents: the three formats Keel reads unchanged (.keel/agents, Claude Code's
// .claude/agents, GitHub Copilot's .github/agents/*.agent.md), problems named file:line, and
// `delegate {agent}` running a child with the agent's instructions and only the tools both the
// agent and the run allow. An untrusted workspace's agents are not loaded; the user's are.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAgentFile } from '../../../src/compose/agents/agent-file.js';
import { loadAgents, workspaceAgentSources } from '../../../src/compose/agents/load-agents.js';
import { composeRuntime } from '../../../src/compose/runtime.js';
import type { SkillProblem } from '../../../src/compose/skills/load-skills.js';
import { describeSkillProblem } from '../../../src/compose/skills/load-skills.js';
import type { Runtime, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

const KNOWN = new Set(['read_file', 'list_files', 'search_files', 'edit_file', 'write_file', 'run_command', 'delegate', 'web_fetch']);

function put(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

async function workspace(name: string): Promise<{ ws: Workspace; root: string; userDir: string }> {
  const base = scratchDir(name);
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  return { ws: await createNodeWorkspace(root), root, userDir: path.join(base, 'user-agents') };
}

const CLAUDE_REVIEWER = [
  '---',
  'name: reviewer',
  'description: Reviews code for bugs. Use after changes.',
  'tools: Read, Grep, Glob',
  'model: inherit',
  'color: blue',
  '---',
  'You are a careful reviewer. REVIEWER-INSTRUCTIONS',
].join('\n');

const COPILOT_DOCS = [
  '---',
  "description: 'Writes documentation'",
  "name: 'Docs Writer'",
  "tools: ['read', 'edit/editFiles', 'githubRepo', 'read/terminalSelection']",
  "model: ['Claude Sonnet 4.5', 'GPT-5']",
  '---',
  '# Docs',
  'Write docs. DOCS-INSTRUCTIONS',
].join('\n');

describe('custom agent files', () => {
  it('reads a Keel agent, a Claude Code subagent and a Copilot agent unchanged', async () => {
    const { ws, root } = await workspace('agents-formats');
    put(
      root,
      '.keel/agents/tester.md',
      '---\nname: tester\ndescription: Runs tests.\ntools: [read_file, run_command]\nmodel: gpt-5\n---\nRun the tests.\n',
    );
    put(root, '.claude/agents/reviewer.md', CLAUDE_REVIEWER);
    put(root, '.github/agents/docs-writer.agent.md', COPILOT_DOCS);
    put(root, '.github/agents/README.md', 'not an agent: only *.agent.md files are read here');
    const { agents, problems } = await loadAgents(workspaceAgentSources(ws), KNOWN);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      agents.map((a) => [a.name, a.file, a.tools, a.model ?? null, a.unknownTools]),
      [
        [
          'docs-writer',
          '.github/agents/docs-writer.agent.md',
          ['read_file', 'list_files', 'edit_file', 'write_file'],
          'Claude Sonnet 4.5',
          ['githubRepo', 'read/terminalSelection'],
        ],
        ['reviewer', '.claude/agents/reviewer.md', ['read_file', 'search_files', 'list_files'], null, []],
        ['tester', '.keel/agents/tester.md', ['read_file', 'run_command'], 'gpt-5', []],
      ],
    );
    assert.match(agents[1]!.instructions, /REVIEWER-INSTRUCTIONS/);
    assert.equal(agents[0]!.description, 'Writes documentation');
  });

  it('names the file and line of each problem and loads the others', async () => {
    const { ws, root } = await workspace('agents-problems');
    put(root, '.keel/agents/no-desc.md', '---\nname: no-desc\ntools: read_file\n---\nBody.\n');
    put(root, '.claude/agents/bad-yaml.md', '---\nname: bad-yaml\ndescription: x\ntools: [Read\n---\nBody.\n');
    put(root, '.claude/agents/Bad_Name.md', '---\nname: Bad Name\ndescription: x\n---\nBody.\n');
    put(root, '.github/agents/two words.agent.md', '---\ndescription: x\n---\nBody.\n');
    put(root, '.github/agents/CSharpExpert.agent.md', '---\ndescription: C#\n---\nBody.\n');
    put(root, '.keel/agents/ok.md', '---\nname: ok\ndescription: Fine.\n---\nBody.\n');
    const { agents, problems } = await loadAgents(workspaceAgentSources(ws), KNOWN);
    assert.deepEqual(
      agents.map((a) => a.name),
      ['CSharpExpert', 'ok'],
    );
    const lines = problems.map(describeSkillProblem);
    assert.ok(
      lines.includes('.keel/agents/no-desc.md:2: the field "description" is missing or empty: say what the agent does and when to use it'),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^\.claude\/agents\/bad-yaml\.md:[45]: invalid YAML/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith('.claude/agents/Bad_Name.md:2: invalid name "Bad Name"')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith('.github/agents/two words.agent.md:1: the file name "two words.agent.md" cannot name an agent')),
      lines.join('\n'),
    );
  });

  it('keeps the first agent of a name: the user folder before the workspace', async () => {
    const { ws, root, userDir } = await workspace('agents-precedence');
    put(userDir, 'reviewer.md', '---\nname: reviewer\ndescription: Mine.\n---\nUSER-VERSION\n');
    put(root, '.claude/agents/reviewer.md', CLAUDE_REVIEWER);
    const { agents, problems } = await loadAgents(
      [{ source: userSkillFolder(userDir), format: 'keel' }, ...workspaceAgentSources(ws)],
      KNOWN,
    );
    assert.deepEqual(
      agents.map((a) => [a.name, a.scope, a.instructions]),
      [['reviewer', 'user', 'USER-VERSION']],
    );
    assert.match(
      describeSkillProblem(problems[0]!),
      /^\.claude\/agents\/reviewer\.md: skipped: an agent named "reviewer" was read before it/,
    );
  });

  it('parses a file without instructions or with a tools value that is no list as a problem', () => {
    assert.deepEqual(parseAgentFile('---\nname: a\ndescription: b\n---\n\n', 'keel', 'a'), {
      ok: false,
      line: 1,
      message: "the agent has no instructions: write them after the front matter's closing line",
    });
    const tools = parseAgentFile('---\nname: a\ndescription: b\ntools: {x: 1}\n---\nBody', 'claude', 'a');
    assert.deepEqual(tools, { ok: false, line: 4, message: '"tools" must be a list of tool names, or one line of them' });
  });
});

async function drain(runtime: Runtime, text: string): Promise<void> {
  for await (const _ of runtime.send(text)) {
    // drain
  }
}

describe('custom agents in a run', () => {
  function compose(s: { ws: Workspace; userDir: string }, provider: ScriptedProvider, trusted = true, problems: SkillProblem[] = []) {
    return composeRuntime({
      provider,
      settings: { maxTurns: 8, autoApprove: ['read', 'write'], commandsAllow: [], commandsDeny: [] },
      workspace: s.ws,
      trusted: () => trusted,
      interactive: false,
      agents: { user: userSkillFolder(s.userDir), report: (p) => problems.push(...p) },
    });
  }

  it('delegate {agent} runs a child with the agent instructions and only the tools both allow', async () => {
    const s = await workspace('agents-delegate');
    put(s.root, '.claude/agents/reviewer.md', CLAUDE_REVIEWER);
    put(s.root, 'a.txt', 'hello');
    const provider = new ScriptedProvider([
      toolTurn('delegate', { task: 'review a.txt', agent: 'reviewer' }),
      textTurn('looks fine'),
      toolTurn('delegate', { task: 'edit it', agent: 'reviewer', tools: ['write_file'] }, '', 'call_2'),
      toolTurn('delegate', { task: 'x', agent: 'nobody' }, '', 'call_3'),
      textTurn('done'),
    ]);
    const runtime = compose(s, provider);
    await drain(runtime, 'review the code');
    assert.match(provider.requests[0]!.system, /- reviewer: Reviews code for bugs\. Use after changes\./);
    assert.doesNotMatch(provider.requests[0]!.system, /REVIEWER-INSTRUCTIONS/);
    const child = provider.requests[1]!;
    assert.match(child.system, /You run as the custom agent "reviewer" \(\.claude\/agents\/reviewer\.md\)[\s\S]*REVIEWER-INSTRUCTIONS/);
    assert.deepEqual(child.tools.map((t) => t.name).sort(), ['list_files', 'read_file', 'search_files']);
    const started = runtime.getEvents().find((e) => e.type === 'frame_started');
    assert.deepEqual(started?.type === 'frame_started' ? started.agent : undefined, {
      name: 'reviewer',
      file: '.claude/agents/reviewer.md',
    });
    const results = runtime.getEvents().flatMap((e) => (e.type === 'observation' ? [e.observation] : []));
    // Naming a tool the agent does not list cannot widen it.
    assert.equal(results[1]!.ok, false);
    assert.match(results[1]!.content, /"write_file" is not a tool this agent has/);
    assert.equal(results[2]!.ok, false);
    assert.match(results[2]!.content, /There is no custom agent named "nobody" \(the agents are: reviewer\)/);
  });

  it('does not load an untrusted workspace agents; the user folder still loads', async () => {
    const s = await workspace('agents-untrusted');
    put(s.root, '.claude/agents/reviewer.md', CLAUDE_REVIEWER);
    put(s.userDir, 'mine.md', '---\nname: mine\ndescription: My own.\n---\nMINE\n');
    const provider = new ScriptedProvider([textTurn('hi')]);
    await drain(compose(s, provider, false), 'hello');
    assert.match(provider.requests[0]!.system, /- mine: My own\./);
    assert.doesNotMatch(provider.requests[0]!.system, /reviewer/);
  });
});
