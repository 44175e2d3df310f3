// A custom agent's (or command's) `model` switches the model the task's provider asks for —
// through the one task path (runTask → executeTask), the real Anthropic SDK and a local server
// speaking its wire format: `keel run --agent`, a `/command` naming a model, and a sub-agent
// started by `delegate {agent}`. A model of another vendor, or a name Keel cannot map, keeps the
// task's model and says so (in the log and the output), never failing the task.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { parseRunArgs } from '../../../src/cli/args.js';
import { runTask } from '../../../src/cli/run.js';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { scratchDir } from '../../support/scratch.js';

const TASK_MODEL = 'claude-sonnet-5-5';
/** A Claude Code subagent file; `tools` null: every tool the run offers (delegate among them). */
const agentFile = (name: string, model: string, tools: string | null = 'Read, Grep') =>
  `---\nname: ${name}\ndescription: The ${name}.\n${tools === null ? '' : `tools: ${tools}\n`}model: ${model}\n---\nYou are the ${name}.\n`;

const isChild = (req: RecordedRequest) => JSON.stringify(req.body.system ?? '').includes('You run as the custom agent');
const lastUser = (req: RecordedRequest) => JSON.stringify(req.body.messages.at(-1));

/** The parent hands work to the helper once; the child answers; the parent then finishes. */
function delegatingModel(agent: string | undefined): (req: RecordedRequest) => WireTurn {
  return (req) => {
    if (isChild(req)) return { text: ['child done'] };
    if (agent && !lastUser(req).includes('tool_result'))
      return { toolCalls: [{ name: 'delegate', input: { task: 'look around', agent } }] };
    return { text: ['all done'] };
  };
}

describe('a custom agent’s model', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  let dir: string;
  afterEach(() => server?.close());

  async function run(model: (req: RecordedRequest) => WireTurn, args: string[], files: Record<string, string>) {
    dir = scratchDir('cli-agent-model');
    const ws = path.join(dir, 'ws');
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), text);
    }
    server = await startModelServer(conversation(model));
    const log = path.join(dir, 'task.jsonl');
    let out = '';
    let err = '';
    const stdout = new PassThrough().on('data', (c) => (out += c));
    const stderr = new PassThrough().on('data', (c) => (err += c));
    const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache'), ANTHROPIC_API_KEY: 'test-key' };
    const argv = [
      'run',
      '--workspace',
      ws,
      '--base-url',
      server.anthropicBaseURL,
      '--no-checkpoints',
      '--approve',
      'all',
      '--log',
      log,
      ...args,
    ];
    const code = await runTask(parseRunArgs(argv, ws), {
      stdin: Object.assign(new PassThrough(), { isTTY: false }),
      stdout,
      stderr,
      env,
      onInterrupt: () => () => undefined,
    });
    assert.equal(code, 0, err);
    const models = server.requests.map((r) => `${isChild(r) ? 'child' : 'task'}:${r.body.model}`);
    return { models, events: loadLog(log).events, out, ws };
  }
  const started = (events: readonly RuntimeEvent[]) => events.filter((e) => e.type === 'run_started');

  it('keel run --agent: the agent’s alias runs its model, and the log says which', async () => {
    const { models, events, out } = await run(delegatingModel(undefined), ['--agent', 'reviewer', 'review'], {
      '.claude/agents/reviewer.md': agentFile('reviewer', 'opus'),
    });
    assert.deepEqual(models, ['task:claude-opus-4-5']);
    const [first] = started(events);
    assert.equal(first?.type === 'run_started' ? first.model : '', 'claude-opus-4-5');
    assert.match(out, /◇ model claude-opus-4-5 \(the agent's\)/);
  });

  it('delegate {agent}: the child asks for the agent’s model, the task keeps its own', async () => {
    const { models, events } = await run(delegatingModel('helper'), ['look'], {
      '.github/agents/helper.agent.md': '---\ndescription: Helps.\ntools: [read]\nmodel: [Claude Haiku 4.5, GPT-4.1]\n---\nHelp.\n',
    });
    assert.deepEqual(models, [`task:${TASK_MODEL}`, 'child:claude-haiku-4-5', `task:${TASK_MODEL}`]);
    const child = started(events).find((e) => e.frame !== undefined);
    assert.equal(child?.type === 'run_started' ? child.model : '', 'claude-haiku-4-5');
  });

  it('keel replay replays a task whose agents switched models (the recording plays, whatever the model)', async () => {
    const { events, ws } = await run(delegatingModel('helper'), ['--agent', 'lead', 'look'], {
      '.claude/agents/lead.md': agentFile('lead', 'opus', null),
      '.claude/agents/helper.md': agentFile('helper', 'haiku'),
    });
    assert.ok(started(events).some((e) => e.type === 'run_started' && e.model === 'claude-haiku-4-5'));
    const report = await replayLog(events, ws);
    assert.deepEqual(report.differences, []);
  });

  it('a /command’s model switches the task’s', async () => {
    const { models } = await run(delegatingModel(undefined), ['/quick now'], {
      '.keel/commands/quick.md': '---\ndescription: Quick.\nmodel: haiku\n---\nDo it quickly: $ARGUMENTS\n',
    });
    assert.deepEqual(models, ['task:claude-haiku-4-5']);
  });

  it('another vendor’s model, or one Keel cannot map, keeps the task’s model with a notice', async () => {
    const other = await run(delegatingModel('helper'), ['--agent', 'reviewer', 'review'], {
      '.claude/agents/reviewer.md': agentFile('reviewer', 'GPT-4.1', null),
      '.claude/agents/helper.md': agentFile('helper', 'Gemini 2.5 Pro'),
    });
    assert.deepEqual(other.models, [`task:${TASK_MODEL}`, `child:${TASK_MODEL}`, `task:${TASK_MODEL}`]);
    const kept = started(other.events).map((e) => (e.type === 'run_started' ? e.modelKept : undefined));
    assert.deepEqual(kept, [
      { requested: 'GPT-4.1', reason: 'other_vendor' },
      { requested: 'Gemini 2.5 Pro', reason: 'unknown' },
    ]);
    assert.match(other.out, /The agent's model "GPT-4\.1" is another vendor’s model .*so the task's model claude-sonnet-5-5 runs\./);
    assert.match(other.out, /The agent's model "Gemini 2\.5 Pro" is not a model Keel knows/);
  });
});
