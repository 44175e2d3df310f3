// From an edit's proposal to disk (issue 24 item 3): the file is read once for the plan (the
// edit tool's precheck, whose preview the diff shows) and once to check it did not change before
// writing; the host reads nothing for the diff, and the call writes what the diff showed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Registry, Runtime, type RuntimeOutput, type Workspace } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { EditPreviews } from '../../../src/host/edits/edit-plans.js';
import { editFileTool } from '../../../src/tools/edit-file.js';
import { readFileTool } from '../../../src/tools/read-file.js';

/** The workspace, counting every read of a file's bytes. */
function counting(ws: Workspace, reads: string[]): Workspace {
  return new Proxy(ws, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'readFile' || typeof value !== 'function') return value;
      return (p: string) => {
        reads.push(p);
        return value.call(target, p);
      };
    },
  });
}

async function editOnce(offer: boolean) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'keel-edit-flow-'));
  writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
  const reads: string[] = [];
  const workspace = counting(await createNodeWorkspace(root), reads);
  const registry = new Registry();
  registry.addTool(readFileTool);
  registry.addTool(editFileTool);
  const store = new EditPreviews();
  // Without `offer` the runtime cannot be handed the precheck's preview (as before this change).
  const previews = offer ? store : { previewed: (id: string) => store.previewed(id) };
  const runtime = new Runtime({
    provider: new ScriptedProvider([
      toolTurn('read_file', { path: 'a.txt' }),
      toolTurn('edit_file', { path: 'a.txt', edits: [{ search: 'two', replace: 'TWO' }] }),
      textTurn('Done.'),
    ]),
    registry,
    workspace,
    previews,
  });
  let readsAtProposal = -1;
  let shown: string | undefined;
  const answered = new Set<string>();
  const onOut = async (out: RuntimeOutput) => {
    if (out.kind !== 'event') return;
    const e = out.event;
    if (e.type === 'intent_proposed' && e.intent.tool === editFileTool.name) readsAtProposal = reads.length;
    if (e.type === 'approval_requested' && !answered.has(e.intentId)) {
      answered.add(e.intentId);
      const intent = runtime.getState().intents[e.intentId]!;
      const forDiff = await store.forDiff(intent, runtime.tool(intent.tool), workspace);
      shown = forDiff?.outcome.ok ? forDiff.outcome.content : undefined;
      runtime.approve(e.intentId);
    }
  };
  const pending: Promise<void>[] = [];
  runtime.subscribe((out) => void pending.push(onOut(out)));
  for await (const _ of runtime.send('change two')) await Promise.all(pending);
  await runtime.idle();
  return { reads: reads.length - readsAtProposal, shown, onDisk: readFileSync(path.join(root, 'a.txt'), 'utf8') };
}

describe('host: an edit from proposal to disk', () => {
  it('reads the file twice (the plan the diff shows, then the check before writing) and writes what the diff showed', async () => {
    const run = await editOnce(true);
    assert.equal(run.shown, 'one\nTWO\n');
    assert.equal(run.onDisk, 'one\nTWO\n');
    assert.equal(run.reads, 2, 'the precheck’s read (planned once, shown in the diff) and the check before the write');
  });

  it('without the precheck’s preview the diff reads the file again (three reads)', async () => {
    const run = await editOnce(false);
    assert.equal(run.onDisk, 'one\nTWO\n');
    assert.equal(run.reads, 3);
  });
});
