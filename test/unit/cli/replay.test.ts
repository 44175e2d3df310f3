// `keel replay`: a recorded task replays clean on its starting workspace, and a build (or a
// workspace) where an edit no longer applies is reported at the step that made the edit.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Runtime, type ApprovalPolicy } from '../../../src/kernel/index.js';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { composeRegistry } from '../../../src/compose/index.js';
import { createPolicy } from '../../../src/tools/index.js';

function start(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replay-'));
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\n');
  return ws;
}

async function record(ws: string) {
  const workspace = await createNodeWorkspace(ws);
  const inner = createPolicy();
  const policy: ApprovalPolicy = { decide: (i, c) => inner.decide(i, c) };
  const runtime = new Runtime({
    provider: new ScriptedProvider([
      toolTurn('read_file', { path: 'a.txt' }),
      toolTurn('edit_file', { path: 'a.txt', edits: [{ search: 'two', replace: 'TWO' }] }),
      textTurn('done'),
    ]),
    registry: composeRegistry(workspace),
    workspace,
    policy,
  });
  for await (const out of runtime.send('fix it'))
    if (out.kind === 'event' && out.event.type === 'approval_requested') runtime.approve(out.event.intentId);
  return runtime.getEvents();
}

describe('keel replay', function () {
  this.timeout(30_000);
  it('a recorded task replays clean over its starting workspace', async () => {
    const events = await record(start());
    const report = await replayLog(events, start());
    assert.deepEqual(report.differences, []);
    assert.equal(report.steps, 3);
  });

  it('an edit that no longer applies is reported at the step that made it', async () => {
    const events = await record(start());
    const changed = start();
    fs.writeFileSync(path.join(changed, 'a.txt'), 'one\nthree\n');
    const report = await replayLog(events, changed);
    const edit = events.find((e) => e.type === 'intent_proposed' && e.intent.tool === 'edit_file')!;
    assert.deepEqual(
      report.differences.filter((d) => d.kind === 'edit').map((d) => [d.step, d.seq]),
      [[2, edit.seq]],
    );
  });
});
