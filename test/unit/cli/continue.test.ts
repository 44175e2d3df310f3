// A task goes on after its run ended: `keel continue LOG "message"` sends a follow-up to a
// finished task (the same sealed log, one chain), `keel resume` on a finished one points to it,
// and `keel resume` goes on with a task stopped cleanly (Ctrl+C, SIGTERM) instead of refusing it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replay } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { existingLogKey } from '../../../src/node/log-seal.js';
import { anthropicSse } from '../../support/anthropic-wire.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { keelIn, slowModel, startSlowRun } from '../../support/slow-run.js';

function keelDone(home: string, cwd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = keelIn(home, cwd, args);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function userMessages(home: string, log: string): string[] {
  const loaded = loadLog(log, existingLogKey({ XDG_CONFIG_HOME: path.join(home, 'config') }));
  assert.equal(loaded.seal.type, 'verified', 'one sealed chain');
  return loaded.events.flatMap((e) => (e.type === 'user_message' ? [e.text] : []));
}

describe('keel continue, and keel resume of a stopped task', function () {
  this.timeout(120_000);
  let home: string;
  let workspace: string;
  let log: string;

  beforeEach(() => {
    home = scratchDir('continue');
    workspace = path.join(home, 'ws');
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'a\n');
    log = path.join(home, 'task.jsonl');
  });

  it('sends a follow-up to a finished task, in the same log; resume points to it', async () => {
    const scripted = ['--provider', 'scripted', '--no-checkpoints'];
    const first = await keelDone(home, workspace, ['run', ...scripted, '--log', log, 'list the files']);
    assert.equal(first.code, 0, first.stderr);
    const resume = await keelDone(home, workspace, ['resume', log, ...scripted]);
    assert.equal(resume.code, 2);
    assert.match(resume.stderr, /nothing to resume; keel continue .*task\.jsonl "…" sends it a follow-up/);
    const next = await keelDone(home, workspace, ['continue', log, ...scripted, '--output', 'json', 'and now say how many']);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(JSON.parse(next.stdout).status, 'done');
    assert.deepEqual(userMessages(home, log), ['list the files', 'and now say how many']);
    const empty = await keelDone(home, workspace, ['continue', log, ...scripted, '  ']);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /message is empty/);
  });

  it('resumes a task stopped by a signal with a message to go on, said on stderr', async () => {
    const slow = await slowModel();
    let fast: ModelServer | undefined;
    try {
      const run = startSlowRun(slow, home, workspace, log);
      await run.streaming;
      run.child.kill('SIGTERM');
      assert.equal((await run.ended).code, 130);
      assert.equal(replay(loadLog(log).events).status, 'cancelled');
      fast = await startModelServer(() => ({ type: 'stream', body: anthropicSse({ text: ['Going on.'] }) }));
      const resumed = await keelDone(home, workspace, ['resume', log, '--base-url', fast.anthropicBaseURL, '--no-checkpoints']);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /was stopped; resuming sends it "Go on with the task from where it was stopped\."/);
      assert.deepEqual(userMessages(home, log), ['slow', 'Go on with the task from where it was stopped.']);
      assert.equal(replay(loadLog(log).events).status, 'completed');
    } finally {
      await slow.close();
      await fast?.close();
    }
  });
});
