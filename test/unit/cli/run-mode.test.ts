// `keel run --mode plan|ask|agent` through the one task path (executeTask): the mode is logged
// before the task, the model is offered only the tools that change nothing, and the terminal
// shows the mode and the to-do list each time the model writes it. Bad values are usage errors.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseResumeArgs, parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { type AgentMode, type ModelEvent, PLAN_APPROVED_TEXT, type RuntimeEvent } from '../../../src/kernel/index.js';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { composeRuntime } from '../../../src/compose/runtime.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { USAGE } from '../../../src/cli/usage.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { runScriptedTask } from '../../support/scripted-task.js';

const PLAN = [
  { id: '1', text: 'Read the config loader', status: 'done' },
  { id: '2', text: 'Add the --verbose flag', status: 'in_progress' },
  { id: '3', text: 'Document it in the README', status: 'pending' },
];

describe('keel run --mode', () => {
  it('parses agent, plan and ask, refuses anything else, and is not taken by keel resume', () => {
    for (const mode of ['agent', 'plan', 'ask'] as const) assert.equal(parseRunArgs(['run', '--mode', mode, 'task'], '/w').mode, mode);
    assert.equal(parseRunArgs(['run', 'task'], '/w').mode, undefined);
    assert.throws(
      () => parseRunArgs(['run', '--mode', 'yolo', 'task'], '/w'),
      (e: Error) => e instanceof UsageError && /--mode must be one of agent, plan, ask/.test(e.message),
    );
    assert.throws(() => parseResumeArgs(['log.jsonl', '--mode', 'plan'], '/w'), UsageError);
    assert.match(USAGE, /--mode agent\|plan\|ask/);
  });

  it('runs the task in Plan mode: only tools that change nothing, the mode and the to-do list printed', async () => {
    const ws = path.join(scratchDir('cli-mode'), 'ws');
    fs.mkdirSync(ws);
    const provider = new ScriptedProvider([toolTurn('todo_write', { todos: PLAN }), textTurn('That is the plan.')]);
    const { runtime, printed } = await runScriptedTask(ws, ['--mode', 'plan', 'add a flag'], provider);
    const offered = provider.requests[0]!.tools.map((t) => t.name);
    assert.ok(offered.includes('read_file') && offered.includes('todo_write'));
    assert.ok(!offered.includes('write_file') && !offered.includes('run_command'));
    assert.equal(runtime.getEvents()[0]!.type, 'mode_set');
    assert.match(printed, /◇ Plan mode/);
    assert.match(
      printed,
      /☰ to-do list, 1 of 3 done:\n {2}\[x\] Read the config loader\n {2}\[>\] Add the --verbose flag {2}\(in progress\)\n {2}\[ \] Document it/,
    );
  });
});

/** A task recorded in a fresh folder holding a.txt: each message sent in its mode, reads and writes unasked. */
async function recordTask(turns: ModelEvent[][], messages: { text: string; mode: AgentMode }[]): Promise<readonly RuntimeEvent[]> {
  const root = scratchDir('replay-mode-rec');
  fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
  const runtime = composeRuntime({
    provider: new ScriptedProvider(turns),
    settings: { maxTurns: 8, autoApprove: ['read', 'write'], commandsAllow: [], commandsDeny: [] },
    workspace: await createNodeWorkspace(root),
    trusted: () => true,
    interactive: false,
  });
  for (const message of messages)
    for await (const _ of runtime.send(message)) {
      // drain
    }
  return runtime.getEvents();
}

describe('keel replay of a task sent in a mode', function () {
  this.timeout(30_000);

  it('sends it in that mode again: the write the mode refused is refused again, no difference', async () => {
    const events = await recordTask(
      [toolTurn('write_file', { path: 'b.txt', content: 'x' }), textTurn('the plan')],
      [{ text: 'plan it', mode: 'plan' }],
    );
    const again = scratchDir('replay-mode-again');
    fs.writeFileSync(path.join(again, 'a.txt'), 'one\n');
    assert.deepEqual((await replayLog(events, again)).differences, []);
    assert.ok(!fs.existsSync(path.join(again, 'b.txt')), 'the replay wrote nothing');
  });

  it('replays every message of the task in its own mode: the plan, then its approval in Agent mode', async () => {
    const events = await recordTask(
      [
        toolTurn('todo_write', { todos: [{ id: '1', text: 'Write b.txt', status: 'pending' }] }),
        textTurn('the plan'),
        toolTurn('write_file', { path: 'b.txt', content: 'x' }),
        textTurn('done'),
      ],
      [
        { text: 'plan it', mode: 'plan' },
        { text: PLAN_APPROVED_TEXT, mode: 'agent' },
      ],
    );
    const again = scratchDir('replay-plan-again');
    fs.writeFileSync(path.join(again, 'a.txt'), 'one\n');
    const report = await replayLog(events, again, Number.POSITIVE_INFINITY, {
      autoApprove: ['read', 'write'],
      approveUnclassified: false,
      commandsAllow: [],
      commandsDeny: [],
    });
    assert.deepEqual(report.differences, []);
    assert.equal(report.calls, 2, 'both runs replayed');
    assert.equal(fs.readFileSync(path.join(again, 'b.txt'), 'utf8'), 'x', 'the write of the approved plan ran again');
  });
});
