// Keel: Replay Task without the editor: a task recorded with checkpoints replays clean from its
// starting state rebuilt out of the checkpoint store (the workspace itself is only read, even
// though the task changed it since), and the report names each difference with its step.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Runtime, type ApprovalPolicy } from '../../../src/kernel/index.js';
import { NodeCheckpointStore } from '../../../src/node/checkpoint-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { composeRegistry } from '../../../src/compose/index.js';
import { replayInCopy, reportMarkdown } from '../../../src/host/replay/replay-report.js';

const allowAll: ApprovalPolicy = { decide: () => ({ type: 'allow', reason: 'test' }) };
const policy = { autoApprove: ['read' as const, 'write' as const], approveUnclassified: false, commandsAllow: [], commandsDeny: [] };

describe('host/replay-report (Keel: Replay Task)', function () {
  this.timeout(60_000);

  it('replays a checkpointed task clean from its starting state, leaving the workspace as it is', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-rr-ws-'));
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-rr-st-'));
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\n');
    const store = new NodeCheckpointStore({ storageDir: storage, workspaceRoot: ws, taskId: 't' });
    const workspace = await createNodeWorkspace(ws);
    const runtime = new Runtime({
      provider: new ScriptedProvider([
        toolTurn('read_file', { path: 'a.txt' }),
        toolTurn('edit_file', { path: 'a.txt', edits: [{ search: 'two', replace: 'TWO' }] }),
        textTurn('done'),
      ]),
      registry: composeRegistry(workspace),
      workspace,
      policy: allowAll,
      checkpoints: store,
    });
    for await (const _ of runtime.send('go'));
    const after = fs.readFileSync(path.join(ws, 'a.txt'), 'utf8');
    assert.equal(after, 'one\nTWO\n');
    const report = await replayInCopy(runtime.getEvents(), ws, (h) => store.read(h), policy);
    assert.deepEqual(report.differences, []);
    assert.equal(report.calls, 2);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), after, 'the workspace is only read');
    assert.match(reportMarkdown('Edit a', report), /Replays clean/);
  });

  it('a log without checkpoints is refused with a clear message', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-rr-ws-'));
    const runtime = new Runtime({ provider: new ScriptedProvider([textTurn('hi')]), registry: composeRegistry(undefined) });
    for await (const _ of runtime.send('hello'));
    await assert.rejects(
      replayInCopy(runtime.getEvents(), ws, async () => undefined, policy),
      /records no checkpoints/,
    );
  });

  it('writes each difference under its step, recorded and replayed text fenced as data', () => {
    const md = reportMarkdown('Fix', {
      steps: 3,
      calls: 2,
      differences: [{ step: 2, seq: 9, tool: 'edit_file', kind: 'edit', recorded: 'ok: edited', replayed: 'stale: ```\n# not a heading' }],
      interrupted: [],
      notRun: [],
      sandbox: { type: 'ready' },
    });
    assert.match(md, /1 difference\(s\)/);
    assert.match(md, /## Step 2 · edit · `edit_file` \(seq 9\)/);
    // A fence longer than any run of backticks in the text: the text cannot close it.
    assert.match(md, /````text\nstale: ```\n# not a heading\n````/);
  });

  it('names the sub-agent frame of a difference, its brief as code', () => {
    const md = reportMarkdown('Explore', {
      steps: 5,
      calls: 3,
      interrupted: [],
      notRun: [],
      sandbox: { type: 'ready' },
      differences: [
        {
          step: 1,
          seq: 12,
          tool: 'read_file',
          frame: 'f1',
          frameName: 'sub-agent "READ `a` *b*"',
          kind: 'observation',
          recorded: 'ok: one',
          replayed: 'ok: two',
        },
      ],
    });
    assert.match(md, /## Step 1 of `sub-agent "READ 'a' \*b\*"` · observation · `read_file` \(seq 12\)/);
  });
});
