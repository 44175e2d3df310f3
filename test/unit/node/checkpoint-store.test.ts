// Checkpoints on disk: what a user relies on when they restore a step — the exact bytes come
// back, files the task created go away, a restore can itself be undone, `.git` is never touched,
// and the store outlives the process that wrote it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { planRestore, Runtime, type ApprovalPolicy, type CheckpointRecord, type RestoreTarget } from '../../../src/kernel/index.js';
import { NodeCheckpointStore } from '../../../src/node/checkpoint-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { composeRegistry } from '../../../src/compose/index.js';

const allowAll: ApprovalPolicy = { decide: () => ({ type: 'allow', reason: 'test' }) };

function tmp(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `keel-cp-${name}-`));
}

function store(ws: string, storage: string, taskId = 'task-1', extra = {}): NodeCheckpointStore {
  return new NodeCheckpointStore({ storageDir: storage, workspaceRoot: ws, taskId, ...extra });
}

/** Hash of every file under a folder, by relative path. */
function treeHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const abs = path.join(dir, rel);
    if (fs.lstatSync(abs).isFile()) out[rel] = createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
  }
  return out;
}

/** The targets whose file the store now hashes differently from how the task left it. */
async function changedByUser(cp: NodeCheckpointStore, targets: readonly RestoreTarget[]): Promise<string[]> {
  const now = await cp.hashes(targets.map((t) => t.path));
  return targets.filter((t) => now[t.path] !== t.expected).map((t) => t.path);
}

async function runTask(ws: string, checkpoints: NodeCheckpointStore, turns: ReturnType<typeof toolTurn>[]) {
  const workspace = await createNodeWorkspace(ws);
  const runtime = new Runtime({
    provider: new ScriptedProvider([...turns, textTurn('done')]),
    registry: composeRegistry(workspace),
    workspace,
    policy: allowAll,
    checkpoints,
  });
  for await (const _ of runtime.send('go'));
  return runtime;
}

describe('checkpoints (Node store)', function () {
  this.timeout(60_000);
  const CRLF = Buffer.from('\ufeffline one\r\nline two\r\n', 'utf8');
  const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x0a]);

  let ws: string;
  let storage: string;
  beforeEach(() => {
    ws = tmp('ws');
    storage = tmp('storage');
    fs.writeFileSync(path.join(ws, 'crlf.txt'), CRLF);
    fs.writeFileSync(path.join(ws, 'latin1.txt'), LATIN1);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  });

  it('a task writes, edits and creates; restoring to its first step brings back the exact bytes and deletes what it created', async () => {
    const cp = store(ws, storage);
    const runtime = await runTask(ws, cp, [
      toolTurn('write_file', { path: 'new.txt', content: 'created\n' }),
      toolTurn('read_file', { path: 'crlf.txt' }),
      toolTurn('edit_file', { path: 'crlf.txt', edits: [{ search: 'line two', replace: 'line 2' }] }),
      toolTurn('read_file', { path: 'latin1.txt' }),
      toolTurn('write_file', { path: 'latin1.txt', content: 'replaced\n' }),
    ]);
    const checkpoints = runtime.getState().checkpoints;
    assert.deepEqual(
      checkpoints.map((c) => c.files.map((f) => f.path)),
      [['new.txt'], ['crlf.txt'], ['latin1.txt']],
    );
    assert.notEqual(fs.readFileSync(path.join(ws, 'crlf.txt')).toString(), CRLF.toString());
    const { targets } = planRestore(checkpoints, checkpoints[0]!.seq);
    assert.deepEqual(await changedByUser(cp, targets), []);
    const undo = await cp.restore(targets);
    assert.deepEqual(fs.readFileSync(path.join(ws, 'crlf.txt')), CRLF);
    assert.deepEqual(fs.readFileSync(path.join(ws, 'latin1.txt')), LATIN1);
    assert.equal(fs.existsSync(path.join(ws, 'new.txt')), false);
    // The restore is itself a checkpoint: undoing it gives back the task's end state.
    const record: CheckpointRecord = { seq: 999, step: 0, kind: 'restore', files: undo };
    await cp.restore(planRestore([record], 999).targets);
    assert.equal(fs.readFileSync(path.join(ws, 'new.txt'), 'utf8'), 'created\n');
    assert.equal(fs.readFileSync(path.join(ws, 'latin1.txt'), 'utf8'), 'replaced\n');
  });

  it('a file created then deleted by commands is brought back to absent and present as recorded', async () => {
    const cp = store(ws, storage);
    const runtime = await runTask(ws, cp, [toolTurn('run_command', { command: 'echo made > made.txt && rm a.txt' })]);
    const [checkpoint] = runtime.getState().checkpoints;
    assert.ok(checkpoint, 'the command step was checkpointed');
    const byPath = Object.fromEntries(checkpoint.files.map((f) => [f.path, f]));
    assert.equal(byPath['made.txt']?.before, null);
    assert.equal(byPath['a.txt']?.after, null);
    await cp.restore(planRestore([checkpoint], checkpoint.seq).targets);
    assert.equal(fs.existsSync(path.join(ws, 'made.txt')), false);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'alpha\n');
  });

  it('a git repository keeps an identical .git through a task with checkpoints and a restore', async () => {
    fs.mkdirSync(path.join(ws, '.git', 'objects', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(ws, '.git', 'index'), Buffer.from([1, 2, 3, 0, 255]));
    fs.writeFileSync(path.join(ws, '.git', 'objects', 'ab', 'cdef'), 'blob');
    const before = treeHashes(path.join(ws, '.git'));
    const cp = store(ws, storage);
    const runtime = await runTask(ws, cp, [
      toolTurn('write_file', { path: 'b.txt', content: 'b\n' }),
      toolTurn('run_command', { command: 'echo c > c.txt' }),
    ]);
    const checkpoints = runtime.getState().checkpoints;
    assert.equal(checkpoints.length, 2);
    assert.ok(checkpoints.every((c) => c.files.every((f) => !f.path.startsWith('.git'))));
    await cp.restore(planRestore(checkpoints, checkpoints[0]!.seq).targets);
    assert.deepEqual(treeHashes(path.join(ws, '.git')), before);
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
    await assert.rejects(cp.restore([{ path: '.git/HEAD', hash: null, expected: null }]), /never writes inside .git/);
    assert.ok(!fs.readdirSync(ws).some((n) => n.startsWith('.keel')), 'nothing of Keel is left in the workspace');
  });

  it('restores after a reload: a new store over the same folder', async () => {
    const runtime = await runTask(ws, store(ws, storage), [toolTurn('write_file', { path: 'a2.txt', content: 'x' })]);
    fs.writeFileSync(path.join(ws, 'a2.txt'), 'x');
    const reloaded = store(ws, storage);
    const checkpoints = runtime.getState().checkpoints;
    await reloaded.restore(planRestore(checkpoints, checkpoints[0]!.seq).targets);
    assert.equal(fs.existsSync(path.join(ws, 'a2.txt')), false);
  });

  it('lists the files the user changed after the checkpoint, for the host to confirm', async () => {
    const cp = store(ws, storage);
    const runtime = await runTask(ws, cp, [
      toolTurn('read_file', { path: 'a.txt' }),
      toolTurn('write_file', { path: 'a.txt', content: 'by keel\n' }),
      toolTurn('write_file', { path: 'other.txt', content: 'o\n' }),
    ]);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'by the user\n');
    const checkpoints = runtime.getState().checkpoints;
    const { targets } = planRestore(checkpoints, checkpoints[0]!.seq);
    assert.deepEqual(await changedByUser(cp, targets), ['a.txt']);
  });

  it('skips a file over the per-file cap with a note, and keeps the store under its cap oldest task first', async () => {
    fs.writeFileSync(path.join(ws, 'big.bin'), Buffer.alloc(2048, 7));
    const small = { maxFileBytes: 1024, maxBytes: 1500 };
    const [big] = await store(ws, storage, 'old', small).capture(['big.bin']);
    assert.deepEqual(big!.skipped, { reason: 'too_large', size: 2048 });
    const old = store(ws, storage, 'old', small);
    fs.writeFileSync(path.join(ws, 'one.txt'), Buffer.alloc(1000, 1));
    const [one] = await old.capture(['one.txt']);
    const fresh = store(ws, storage, 'new', small);
    fs.writeFileSync(path.join(ws, 'two.txt'), Buffer.alloc(1000, 2));
    const [two] = await fresh.capture(['two.txt']);
    await fresh.collect();
    assert.equal(await fresh.read(one!.before!), undefined, 'the oldest task went first');
    assert.ok(await fresh.read(two!.before!), 'the current task is kept');
    await assert.rejects(fresh.restore([{ path: 'one.txt', hash: one!.before, expected: null }]), /no longer stored/);
  });

  it('keeps the blobs a forked task retained when the task it came from is collected', async () => {
    const small = { maxBytes: 2500 };
    const old = store(ws, storage, 'old', small);
    fs.writeFileSync(path.join(ws, 'zero.txt'), Buffer.alloc(1000, 0));
    fs.writeFileSync(path.join(ws, 'one.txt'), Buffer.alloc(1000, 1));
    const [zero, one] = await old.capture(['zero.txt', 'one.txt']);
    const fork = store(ws, storage, 'fork', small);
    await fork.retain([one!.before!, 'f'.repeat(64), 'not a hash']);
    const fresh = store(ws, storage, 'new', small);
    fs.writeFileSync(path.join(ws, 'two.txt'), Buffer.alloc(1000, 2));
    await fresh.capture(['two.txt']);
    await fresh.collect();
    assert.equal(await fresh.read(zero!.before!), undefined, 'the old task was collected');
    assert.ok(await fresh.read(one!.before!), 'the fork still uses it');
  });

  it('checkpoints a command step in a 20,000-file workspace', async function () {
    this.timeout(180_000); // writes and scans 20,000 files: minutes on a loaded 2-core machine
    for (let d = 0; d < 100; d++) {
      fs.mkdirSync(path.join(ws, `d${d}`));
      for (let f = 0; f < 200; f++) fs.writeFileSync(path.join(ws, `d${d}`, `f${f}.txt`), `${d}/${f}\n`);
    }
    const cp = store(ws, storage);
    const runtime = await runTask(ws, cp, [toolTurn('run_command', { command: 'echo changed > d5/f7.txt' })]);
    const [checkpoint] = runtime.getState().checkpoints;
    assert.deepEqual(
      checkpoint?.files.map((f) => f.path),
      ['d5/f7.txt'],
    );
    await cp.restore(planRestore([checkpoint!], checkpoint!.seq).targets);
    assert.equal(fs.readFileSync(path.join(ws, 'd5', 'f7.txt'), 'utf8'), '5/7\n');
  });

  it('never hashes what only dependencies and tools write, ignored or not: node_modules, a CACHEDIR.TAG folder, a virtualenv (issue 36)', async () => {
    fs.writeFileSync(path.join(ws, 'app.js'), 'v1\n');
    for (const dir of ['node_modules/dep', 'target/debug', '.venv/lib']) {
      fs.mkdirSync(path.join(ws, dir), { recursive: true });
      for (let f = 0; f < 50; f++) fs.writeFileSync(path.join(ws, dir, `f${f}.js`), `${f}\n`);
    }
    fs.writeFileSync(path.join(ws, 'target/CACHEDIR.TAG'), 'Signature: 8a477f597d28d172789f06886806bc55\n');
    fs.writeFileSync(path.join(ws, '.venv/pyvenv.cfg'), 'home = /usr/bin\n');
    const cp = store(ws, storage);
    const snapshot = await cp.snapshot();
    assert.deepEqual([...snapshot.files.keys()].sort(), ['a.txt', 'app.js', 'crlf.txt', 'latin1.txt']);
    fs.writeFileSync(path.join(ws, 'node_modules/dep/f1.js'), 'changed by an install\n');
    fs.writeFileSync(path.join(ws, 'app.js'), 'v2\n');
    assert.deepEqual(
      (await cp.changedSince(snapshot)).map((f) => f.path),
      ['app.js'],
    );
  });
});
