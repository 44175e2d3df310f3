// The task ledger with the real file tools: exact after edits made outside Keel, "unchanged
// since step N" only while the earlier read is still in the context, and kept across a fold.
import assert from 'node:assert/strict';
import {
  Registry,
  Runtime,
  renderLedger,
  replay,
  type ApprovalPolicy,
  type ModelMessage,
  type RuntimeEvent,
} from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn, toolTurn, type ScriptedTurn } from '../../../src/providers/scripted.js';
import { editFileTool } from '../../../src/tools/edit-file.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { drain, memoryWorkspace } from './helpers.js';

const allowAll: ApprovalPolicy = { decide: () => ({ type: 'allow', reason: 'test' }) };

/** A runtime whose script is a list of steps; a step may change the workspace first (an outside edit). */
function setup(steps: (() => ScriptedTurn)[]) {
  const workspace = memoryWorkspace({ 'a.ts': 'const a = 1;\nexport const b = a + 1;\n' });
  let turn = 0;
  const provider = new ScriptedProvider(() => (turn < steps.length ? steps[turn++]!() : textTurn('done')));
  let n = 0;
  const runtime = new Runtime({
    provider,
    registry: new Registry().addTool(readFileTool).addTool(editFileTool),
    workspace,
    policy: allowAll,
    newId: () => `id${++n}`,
  });
  return { runtime, provider, workspace };
}

const results = (events: readonly RuntimeEvent[]) => events.flatMap((e) => (e.type === 'observation' ? [e.observation] : []));
const read =
  (ref: string, extra: object = {}) =>
  () =>
    toolTurn('read_file', { path: 'a.ts', ...extra }, '', ref);
const edit = (ref: string, search: string, replace: string) => () =>
  toolTurn('edit_file', { path: 'a.ts', edits: [{ search, replace }] }, '', ref);

describe('kernel: the task ledger', () => {
  it('stays exact when the file is changed outside Keel', async () => {
    let ws: ReturnType<typeof memoryWorkspace> | undefined;
    const outside = (text: string, then: () => ScriptedTurn) => () => {
      ws!.files['a.ts'] = text;
      return then();
    };
    const { runtime, workspace } = setup([
      read('r1'),
      read('r2'),
      outside('const a = 2;\nexport const b = a + 1;\n', read('r3')),
      edit('e1', 'a + 1', 'a + 10'),
      outside('const a = 3;\nexport const b = a + 10;\n', edit('e2', 'a + 10', 'a * 10')),
      read('r4'),
    ]);
    ws = workspace;
    await drain(runtime.send('look at a.ts'));
    const [r1, r2, r3, e1, e2, r4] = results(runtime.getEvents());
    assert.match(r1!.content, /^a\.ts — 2 lines/);
    assert.match(r2!.content, /unchanged since your read of it at step 1/, 'the same file, still in context: not sent again');
    assert.match(r3!.content, /changed since your last read of it, at step 1/);
    assert.match(r3!.content, /const a = 2;/);
    assert.equal(e1!.ok, true);
    assert.equal(e2!.code, 'stale', 'the outside change is caught before writing');
    assert.match(r4!.content, /const a = 3;/);

    const trail: string[] = [];
    // Replay the log up to each observation: the ledger at every point.
    for (const e of runtime.getEvents()) {
      if (e.type !== 'observation') continue;
      const s = replay(runtime.getEvents().slice(0, e.seq)).ledger.reads['a.ts']!;
      trail.push(`${s.step}:${s.changedOutsideAt ?? '-'}:${s.hash === s.current ? 'same' : 'moved'}`);
    }
    assert.deepEqual(trail, ['1:-:same', '1:-:same', '3:-:same', '3:-:moved', '3:5:moved', '6:-:same']);
    const ledger = runtime.getState().ledger;
    assert.deepEqual(ledger.edits['a.ts'], { edits: 1, added: 1, removed: 1, created: false, step: 4 });
    const text = renderLedger(replay(runtime.getEvents().filter((e) => e.seq <= eventSeqOf(runtime.getEvents(), 'e2'))).ledger);
    assert.match(text, /- Read: `a\.ts` \(all 2 lines, step 3, changed outside Keel by step 5\)/);
    assert.match(renderLedger(ledger), /- Read: `a\.ts` \(all 2 lines, step 6\)\n- Edited: `a\.ts` \+1 −1 \(1 edit, last at step 4\)/);
  });

  it('sends the content again once the earlier read is folded away, or when forced', async () => {
    const first = setup([read('r1'), read('r2', { force: true })]);
    await drain(first.runtime.send('read it'));
    const [, forced] = results(first.runtime.getEvents());
    assert.match(forced!.content, /^a\.ts — 2 lines/, 'force: true returns the content');

    assert.equal(await first.runtime.fold(), 'folded');
    const again = setup([read('r3')]);
    const resumed = new Runtime({
      provider: again.provider,
      registry: new Registry().addTool(readFileTool).addTool(editFileTool),
      workspace: first.workspace,
      policy: allowAll,
      events: first.runtime.getEvents(),
    });
    await drain(resumed.send('read it once more'));
    const last = results(resumed.getEvents()).at(-1)!;
    assert.match(last.content, /^a\.ts — 2 lines/, 'the whole read is no longer in the context: the content comes back');
    const block = again.provider.requests[0]!.messages[1] as Extract<ModelMessage, { role: 'user' }>;
    assert.match(block.text, /- Read: `a\.ts` \(all 2 lines, step 2\)/, 'the ledger in the notes block vouches for the read');
  });
});

function eventSeqOf(events: readonly RuntimeEvent[], providerRef: string): number {
  const proposed = events.find((e) => e.type === 'intent_proposed' && e.intent.providerRef === providerRef);
  const id = proposed?.type === 'intent_proposed' ? proposed.intent.id : '';
  return events.find((e) => e.type === 'observation' && e.observation.intentId === id)!.seq;
}
