// Restoring files to a point of a task through the runtime, as the transcript's buttons do:
// the workspace comes back byte for byte as it was right after that step (later steps undone,
// files they created removed), files the user changed since are confirmed first (declining
// changes nothing), the restore is logged and can itself be undone, also after a reload.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Runtime, type ApprovalPolicy, type RuntimeEvent } from '../../../src/kernel/index.js';
import { NodeCheckpointStore } from '../../../src/node/checkpoint-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { composeRegistry } from '../../../src/compose/index.js';

const allowAll: ApprovalPolicy = { decide: () => ({ type: 'allow', reason: 'test' }) };
const BOM_CRLF = Buffer.from('\ufeffline one\r\nline two\r\n', 'utf8');
const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);

function tmp(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `keel-restore-${name}-`));
}

describe('restoring files to a step (runtime)', function () {
  this.timeout(60_000);
  let ws: string;
  let storage: string;
  const file = (rel: string) => path.join(ws, rel);
  const store = () => new NodeCheckpointStore({ storageDir: storage, workspaceRoot: ws, taskId: 't1' });

  async function runtimeWith(turns: ReturnType<typeof toolTurn>[], events?: readonly RuntimeEvent[]): Promise<Runtime> {
    const workspace = await createNodeWorkspace(ws);
    const runtime = new Runtime({
      provider: new ScriptedProvider([...turns, textTurn('done')]),
      registry: composeRegistry(workspace),
      workspace,
      policy: allowAll,
      checkpoints: store(),
      ...(events ? { events } : {}),
    });
    if (!events) for await (const _ of runtime.send('go'));
    return runtime;
  }

  /** Two edit steps and a file created by a third. */
  const twoEdits = () => [
    toolTurn('read_file', { path: 'crlf.txt' }),
    toolTurn('edit_file', { path: 'crlf.txt', edits: [{ search: 'line two', replace: 'line 2' }] }),
    // Overwriting a file takes a read first.
    toolTurn('read_file', { path: 'latin1.txt' }),
    toolTurn('write_file', { path: 'latin1.txt', content: 'replaced\n' }),
    toolTurn('write_file', { path: 'new.txt', content: 'created\n' }),
  ];
  const never = async () => assert.fail('nothing the user changed: no question');

  beforeEach(() => {
    ws = tmp('ws');
    storage = tmp('storage');
    fs.writeFileSync(file('crlf.txt'), BOM_CRLF);
    fs.writeFileSync(file('latin1.txt'), LATIN1);
  });

  it('restores to after the first edit byte for byte, removes what later steps created, and logs the restore', async () => {
    const runtime = await runtimeWith(twoEdits());
    const [first, , third] = runtime.getState().checkpoints;
    const afterFirst = fs.readFileSync(file('crlf.txt'));
    assert.ok(third, 'three steps changed files');
    const outcome = await runtime.restoreFiles({ afterSeq: first!.seq, confirmOverwrite: never });
    assert.deepEqual(outcome, { type: 'restored', paths: ['latin1.txt', 'new.txt'], unrestorable: [] });
    assert.deepEqual(fs.readFileSync(file('crlf.txt')), afterFirst, 'the first edit stays');
    assert.match(afterFirst.toString('utf8'), /^\ufeffline one\r\nline 2\r\n$/, 'BOM and CRLF kept by the edit');
    assert.deepEqual(fs.readFileSync(file('latin1.txt')), LATIN1);
    assert.equal(fs.existsSync(file('new.txt')), false);
    const logged = runtime.getState().checkpoints.at(-1)!;
    assert.equal(logged.kind, 'restore');
    assert.deepEqual(logged.files.map((f) => f.path).sort(), ['latin1.txt', 'new.txt']);
  });

  it('undoes a restore: back to how the task left the files', async () => {
    const runtime = await runtimeWith(twoEdits());
    const endCrlf = fs.readFileSync(file('crlf.txt'));
    await runtime.restoreFiles({ afterSeq: 0, confirmOverwrite: never });
    assert.deepEqual(fs.readFileSync(file('crlf.txt')), BOM_CRLF);
    assert.equal(fs.existsSync(file('new.txt')), false);
    const restore = runtime.getState().checkpoints.at(-1)!;
    await runtime.restoreFiles({ afterSeq: restore.seq - 1, confirmOverwrite: never });
    assert.deepEqual(fs.readFileSync(file('crlf.txt')), endCrlf);
    assert.equal(fs.readFileSync(file('latin1.txt'), 'utf8'), 'replaced\n');
    assert.equal(fs.readFileSync(file('new.txt'), 'utf8'), 'created\n');
  });

  it('asks before overwriting files the user changed since, and declining changes nothing', async () => {
    const runtime = await runtimeWith(twoEdits());
    fs.writeFileSync(file('latin1.txt'), 'the user typed this\n');
    const events = runtime.getEvents().length;
    const asked: string[][] = [];
    const declined = await runtime.restoreFiles({
      afterSeq: 0,
      confirmOverwrite: async (paths) => {
        asked.push([...paths]);
        return false;
      },
    });
    assert.deepEqual(declined, { type: 'declined' });
    assert.deepEqual(asked, [['latin1.txt']], 'only the file the user changed is listed');
    assert.equal(fs.readFileSync(file('latin1.txt'), 'utf8'), 'the user typed this\n');
    assert.ok(fs.existsSync(file('new.txt')), 'nothing restored');
    assert.equal(runtime.getEvents().length, events, 'nothing logged');
    await runtime.restoreFiles({ afterSeq: 0, confirmOverwrite: async () => true });
    assert.deepEqual(fs.readFileSync(file('latin1.txt')), LATIN1);
    // The user's text went into the restore checkpoint: undoing the restore brings it back.
    const restore = runtime.getState().checkpoints.at(-1)!;
    await runtime.restoreFiles({ afterSeq: restore.seq - 1, confirmOverwrite: never });
    assert.equal(fs.readFileSync(file('latin1.txt'), 'utf8'), 'the user typed this\n');
  });

  it('restores after a reload: a runtime rebuilt from the log, over a new store', async () => {
    const first = await runtimeWith(twoEdits());
    const events = first.getEvents();
    const reloaded = await runtimeWith([], events);
    await reloaded.restoreFiles({ afterSeq: 0, confirmOverwrite: never });
    assert.deepEqual(fs.readFileSync(file('crlf.txt')), BOM_CRLF);
    assert.deepEqual(fs.readFileSync(file('latin1.txt')), LATIN1);
    assert.equal(fs.existsSync(file('new.txt')), false);
  });

  it('brings back a file the task created and then deleted, at the step where it existed', async () => {
    const runtime = await runtimeWith([
      toolTurn('write_file', { path: 'temp.txt', content: 'temporary\n' }),
      toolTurn('run_command', { command: 'rm temp.txt' }),
    ]);
    const [created, deleted] = runtime.getState().checkpoints;
    assert.ok(deleted, 'the command step was checkpointed');
    assert.equal(fs.existsSync(file('temp.txt')), false);
    await runtime.restoreFiles({ afterSeq: created!.seq, confirmOverwrite: never });
    assert.equal(fs.readFileSync(file('temp.txt'), 'utf8'), 'temporary\n');
    await runtime.restoreFiles({ afterSeq: 0, confirmOverwrite: async () => true });
    assert.equal(fs.existsSync(file('temp.txt')), false);
  });

  it('says there is nothing to do when the files are already as they were, and logs nothing', async () => {
    const runtime = await runtimeWith(twoEdits());
    const last = runtime.getState().checkpoints.at(-1)!;
    const events = runtime.getEvents().length;
    assert.deepEqual(await runtime.restoreFiles({ afterSeq: last.seq, confirmOverwrite: never }), { type: 'nothing', unrestorable: [] });
    assert.equal(runtime.getEvents().length, events);
  });
});
