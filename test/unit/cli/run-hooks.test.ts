// keel run and hooks: the workspace's hooks run only with --allow-hooks (without it keel says how
// many it skipped and how to run them), a blocking hook is printed on one line, and keel replay
// runs no hook but plays the recorded answers back, so a blocked call replays without a difference.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRunArgs } from '../../../src/cli/args.js';
import { USAGE } from '../../../src/cli/usage.js';
import { replayLog } from '../../../src/compose/replay/replay.js';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { runScriptedTask } from '../../support/scripted-task.js';

const HOOKS = JSON.stringify({
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: 'touch .hook-ran; grep -q "rm -rf build" && { echo "build/ stays: use npm run clean" >&2; exit 2; }; exit 0',
          },
        ],
      },
    ],
  },
});

function workspace(name: string): string {
  const ws = path.join(scratchDir(name), 'ws');
  fs.mkdirSync(path.join(ws, 'build'), { recursive: true });
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.writeFileSync(path.join(ws, 'build', 'out.js'), 'built\n');
  fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), HOOKS);
  return ws;
}

async function run(ws: string, flags: string[]) {
  const provider = new ScriptedProvider([toolTurn('run_command', { command: 'rm -rf build' }), textTurn('ok')]);
  const ran = await runScriptedTask(ws, [...flags, 'clean up'], provider, { PATH: process.env.PATH ?? '' });
  return { printed: ran.printed, stderr: ran.stderr, events: ran.runtime.getEvents(), provider };
}

const hookRuns = (events: readonly RuntimeEvent[]) => events.filter((e) => e.type === 'hook_ran');

describe('keel run --allow-hooks', function () {
  this.timeout(30_000);

  it('is a flag of keel run, described by --help', () => {
    assert.equal(parseRunArgs(['run', '--allow-hooks', 'task'], '/w').allowHooks, true);
    assert.equal(parseRunArgs(['run', 'task'], '/w').allowHooks, undefined);
    assert.equal(parseRunArgs(['run', '--allow-hooks-unsandboxed', 'task'], '/w').allowHooks, true);
    assert.equal(parseRunArgs(['run', '--allow-hooks-unsandboxed', 'task'], '/w').hooksUnsandboxed, true);
    assert.equal(parseRunArgs(['run', '--allow-hooks', 'task'], '/w').hooksUnsandboxed, undefined);
    assert.match(USAGE, /\[--allow-hooks \| --allow-hooks-unsandboxed\]/);
    assert.match(USAGE, /--allow-hooks +run the workspace's hooks too, in the sandbox/);
    assert.match(USAGE, /--allow-hooks-unsandboxed +the same, run as your shell would run them/);
  });

  it("without it the workspace's hooks are skipped, and keel says how many and how to run them", async () => {
    const ws = workspace('cli-hooks-off');
    const { stderr, events } = await run(ws, []);
    assert.match(stderr, /keel: skipped 1 workspace hook \(\.claude\/settings\.json\); --allow-hooks runs them/);
    assert.equal(hookRuns(events).length, 0);
    assert.ok(!fs.existsSync(path.join(ws, '.hook-ran')), 'the hook never ran');
    assert.ok(
      events.some((e) => e.type === 'approval_requested'),
      'the call went to the policy as before',
    );
  });

  it("the user's own hooks run without the flag: a blocked task is not sent and ends refused (exit 3)", async () => {
    const ws = workspace('cli-hooks-user');
    const config = path.join(ws, '..', 'config', 'keel');
    fs.mkdirSync(config, { recursive: true });
    const block = { type: 'command', command: 'cat > /dev/null; echo "no tasks on Fridays" >&2; exit 2' };
    fs.writeFileSync(path.join(config, 'hooks.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [block] }] } }));
    const provider = new ScriptedProvider([textTurn('never')]);
    const { result } = await runScriptedTask(ws, ['clean up'], provider);
    assert.equal(provider.requests.length, 0, 'nothing was sent');
    assert.equal(result.status, 'refused');
    assert.equal(result.exitCode, 3);
    assert.match(result.reason, /A hook kept the task from being sent: no tasks on Fridays \(.*hooks\.json:\d+\)/);
  });

  it('with it the hook runs: the block is printed on one line and the model gets the reason; replay plays it back without running it', async () => {
    const ws = workspace('cli-hooks-on');
    const { printed, events, provider } = await run(ws, ['--allow-hooks']);
    assert.equal(hookRuns(events).length, 1);
    assert.ok(!events.some((e) => e.type === 'approval_requested'), 'no approval asked for a blocked call');
    assert.match(
      printed,
      /⛔ hook blocked at PreToolUse \(run_command\): build\/ stays: use npm run clean — touch \.hook-ran; .* \(\.claude\/settings\.json:\d+\)/,
    );
    assert.ok(fs.existsSync(path.join(ws, 'build', 'out.js')));
    const results = provider.requests[1]!.messages.filter((m) => m.role === 'tool_result');
    assert.match(JSON.stringify(results), /build\/ stays: use npm run clean/);

    const again = workspace('cli-hooks-replay');
    const report = await replayLog(events, again);
    assert.deepEqual(report.differences, []);
    assert.ok(!fs.existsSync(path.join(again, '.hook-ran')), 'the replay ran no hook');
    assert.ok(fs.existsSync(path.join(again, 'build', 'out.js')), 'nor the blocked command');
  });
});
