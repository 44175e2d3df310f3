// Never ask for what will fail anyway: a tool's checks that need no user run before approval is
// asked (write_file over a file not read in this task is answered "stale" without a question; an
// edit whose search text is not in the file is failed to the model, with or without a host that
// shows diffs), except after an earlier call of the same step (which runs first and may change
// what is seen).
import assert from 'node:assert/strict';
import { type EditPreviewSource, Registry, Runtime, type ApprovalPolicy, type RuntimeEvent } from '../../../src/kernel/index.js';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { editFileTool } from '../../../src/tools/edit-file.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { writeFileTool } from '../../../src/tools/write-file.js';
import { drain, memoryWorkspace } from './helpers.js';

/** Reads run; changes ask (what the default policy does for writes). */
const askForWrites: ApprovalPolicy = {
  decide: (intent) => (intent.risk === 'read' ? { type: 'allow', reason: 'read' } : { type: 'ask', reason: 'changes files' }),
};

function turn(...calls: [string, unknown][]): ModelEvent[] {
  return [
    ...calls.map(([tool, input], i): ModelEvent => ({ type: 'tool_intent', providerRef: `c${i}`, tool, input })),
    { type: 'final', stopReason: 'tool_intent' },
  ];
}

async function run(first: ModelEvent[], { before = [], previews }: { before?: ModelEvent[][]; previews?: EditPreviewSource } = {}) {
  const workspace = memoryWorkspace({ 'a.ts': 'const a = 1;\n' });
  const provider = new ScriptedProvider([...before, first, textTurn('ok')]);
  const registry = new Registry().addTool(readFileTool).addTool(writeFileTool).addTool(editFileTool);
  let n = 0;
  const runtime = new Runtime({
    provider,
    registry,
    workspace,
    policy: askForWrites,
    newId: () => `id${++n}`,
    ...(previews ? { previews } : {}),
  });
  const asked: string[] = [];
  await drain(runtime.send('go'), (id) => {
    asked.push(runtime.getState().intents[id]!.tool);
    runtime.approve(id);
  });
  const events = runtime.getEvents() as RuntimeEvent[];
  const observations = events.flatMap((e) => (e.type === 'observation' ? [e.observation] : []));
  return { asked, observations, workspace };
}

describe('kernel: checks before asking', () => {
  it('answers write_file over an unread existing file as stale without asking, and writes nothing', async () => {
    const { asked, observations, workspace } = await run(turn(['write_file', { path: 'a.ts', content: 'x' }]));
    assert.deepEqual(asked, [], 'the user is not asked');
    assert.equal(observations.length, 1);
    assert.equal(observations[0]!.code, 'stale');
    assert.match(observations[0]!.content, /has not been read in this task/);
    assert.equal(workspace.files['a.ts'], 'const a = 1;\n');
  });

  it('answers edit_file of a missing file without asking', async () => {
    const { asked, observations } = await run(turn(['edit_file', { path: 'nope.ts', edits: [{ search: 'a', replace: 'b' }] }]));
    assert.deepEqual(asked, []);
    assert.equal(observations[0]!.code, 'not_found');
  });

  it('still asks for a new file, and for a file an earlier call of the same step reads first', async () => {
    const created = await run(turn(['write_file', { path: 'new.ts', content: 'x' }]));
    assert.deepEqual(created.asked, ['write_file']);
    const readThenWrite = await run(turn(['read_file', { path: 'a.ts' }], ['write_file', { path: 'a.ts', content: 'y\n' }]));
    assert.deepEqual(readThenWrite.asked, ['write_file']);
    assert.equal(readThenWrite.observations.at(-1)!.ok, true, readThenWrite.observations.at(-1)!.content);
    assert.equal(readThenWrite.workspace.files['a.ts'], 'y\n');
  });

  it('fails an edit whose search text is not in the file to the model before any card, with and without diffs', async () => {
    const read = [turn(['read_file', { path: 'a.ts' }])];
    const bad = turn(['edit_file', { path: 'a.ts', edits: [{ search: 'const b = 2;', replace: 'const b = 3;' }] }]);
    const offered: string[] = [];
    const diffs: EditPreviewSource = { previewed: () => undefined, offer: (id) => void offered.push(id) };
    for (const previews of [undefined, diffs]) {
      const { asked, observations, workspace } = await run(bad, { before: read, ...(previews ? { previews } : {}) });
      assert.deepEqual(asked, [], 'no Approve that would then fail');
      const failed = observations.at(-1)!;
      assert.equal(failed.ok, false);
      assert.equal(failed.code, 'invalid_input');
      assert.match(failed.content, /not found|does not match|no match/i, failed.content);
      assert.equal(failed.summary, 'a.ts: edit did not apply');
      assert.equal(workspace.files['a.ts'], 'const a = 1;\n');
    }
    assert.deepEqual(offered, [], 'no diff offered for it');
    // An edit that applies still asks.
    const good = await run(turn(['edit_file', { path: 'a.ts', edits: [{ search: 'const a = 1;', replace: 'const a = 2;' }] }]), {
      before: read,
    });
    assert.deepEqual(good.asked, ['edit_file']);
  });
});
