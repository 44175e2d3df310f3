// `keel run --agent NAME` through the one task path (executeTask): the agent's whole profile is
// logged before the task (agent_set), its instructions close the system prompt, its tools narrow
// the task's (with the mode's, never widening), and `keel replay` sends the task as that agent
// again. An unknown name is the user's error (exit 2), and keel resume refuses --agent.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError, parseResumeArgs, parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { USAGE } from '../../../src/cli/usage.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { runScriptedTask } from '../../support/scripted-task.js';

const REVIEWER = '---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep, Write\n---\nREVIEWER-INSTRUCTIONS\n';

function run(ws: string, args: string[], provider: ScriptedProvider) {
  return runScriptedTask(ws, args, provider);
}

function workspace(name: string): string {
  const ws = path.join(scratchDir(name), 'ws');
  fs.mkdirSync(path.join(ws, '.claude/agents'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.claude/agents/reviewer.md'), REVIEWER);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
  return ws;
}

describe('keel run --agent', function () {
  this.timeout(30_000);

  it('parses the name, is in the usage text, and is not taken by keel resume', () => {
    assert.equal(parseRunArgs(['run', '--agent', 'reviewer', 'task'], '/w').agent, 'reviewer');
    assert.equal(parseRunArgs(['run', 'task'], '/w').agent, undefined);
    assert.throws(() => parseResumeArgs(['log.jsonl', '--agent', 'reviewer'], '/w'), UsageError);
    assert.match(USAGE, /--agent NAME/);
  });

  it('runs the task as the agent: logged first, its instructions in the prompt, only its tools, refusals named', async () => {
    const ws = workspace('cli-agent');
    const provider = new ScriptedProvider([toolTurn('run_command', { command: 'ls' }), textTurn('reviewed')]);
    const { runtime, printed } = await run(ws, ['--agent', 'reviewer', 'review a.txt'], provider);
    const first = runtime.getEvents()[0]!;
    assert.equal(first.type, 'agent_set');
    assert.equal(first.type === 'agent_set' ? first.agent?.instructions : '', 'REVIEWER-INSTRUCTIONS');
    assert.match(
      provider.requests[0]!.system,
      /picked the custom agent "reviewer" \(\.claude\/agents\/reviewer\.md\)[\s\S]*REVIEWER-INSTRUCTIONS/,
    );
    const offered = provider.requests[0]!.tools.map((t) => t.name).sort();
    assert.deepEqual(offered, ['read_file', 'search_files', 'write_file']);
    const refused = runtime.getEvents().find((e) => e.type === 'observation');
    assert.match(
      refused?.type === 'observation' ? refused.observation.content : '',
      /run_command is not available to the agent "reviewer"/,
    );
    assert.match(printed, /◇ agent reviewer \(\.claude\/agents\/reviewer\.md\): tools read_file, search_files, write_file/);
    // The refusal is told in words, not as an error code.
    assert.match(printed, /\n {2}↳ Not run: the agent reviewer does not use this tool\n/);
  });

  it('narrows with the mode: in Plan the agent keeps only its tools that change nothing', async () => {
    const ws = workspace('cli-agent-plan');
    const provider = new ScriptedProvider([textTurn('plan')]);
    await run(ws, ['--agent', 'reviewer', '--mode', 'plan', 'plan it'], provider);
    assert.deepEqual(provider.requests[0]!.tools.map((t) => t.name).sort(), ['read_file', 'search_files']);
  });

  it('refuses an unknown agent with the names it has (exit 2), before anything is sent', async () => {
    const ws = workspace('cli-agent-unknown');
    const provider = new ScriptedProvider([textTurn('never')]);
    await assert.rejects(
      run(ws, ['--agent', 'nobody', 'x'], provider),
      (e: Error) => e instanceof InputError && /no custom agent named "nobody" \(the agents are: reviewer\)/.test(e.message),
    );
    assert.equal(provider.requests.length, 0);
  });

  it('keel replay sends the task as the recorded agent again: no difference', async () => {
    const ws = workspace('cli-agent-replay');
    const provider = new ScriptedProvider([toolTurn('run_command', { command: 'ls' }), textTurn('reviewed')]);
    const { runtime } = await run(ws, ['--agent', 'reviewer', 'review a.txt'], provider);
    const again = scratchDir('cli-agent-replay-again');
    fs.writeFileSync(path.join(again, 'a.txt'), 'one\n');
    assert.deepEqual((await replayLog(runtime.getEvents(), again)).differences, []);
  });
});
