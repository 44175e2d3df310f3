import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MemoryRecord } from '../../../src/kernel/index.js';
import { extensionMemoryFiles, JsonlMemoryStore } from '../../../src/node/memory-store.js';
import { editMemory, memoryTextProblem, rememberStated } from '../../../src/host/memory/memory-edits.js';
import { groupByScope, memoryDescription, memoryLabel, memoryTooltip } from '../../../src/host/memory/memory-items.js';
import { ObservedMemoryStore } from '../../../src/host/memory/observed-store.js';
import { MemoryLogStore, type ModelRequest } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { RuntimeFactory } from '../../../src/host/runtime/runtime-factory.js';
import { readSettings } from '../../../src/host/settings/settings.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12, 0);

function record(id: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id,
    text: `memory ${id}`,
    scope: 'workspace',
    source: { taskId: 'task-9', eventSeq: 14, author: 'model' },
    confidence: 'inferred',
    created: NOW - 3 * DAY,
    lastUsed: NOW - DAY,
    tags: [],
    paths: [],
    ...extra,
  };
}

describe('host/memory: the Memory view and hand edits', () => {
  let dir: string;
  let store: JsonlMemoryStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-memview-'));
    store = JsonlMemoryStore.open({ user: path.join(dir, 'g', 'user.jsonl'), workspace: path.join(dir, 'w', 'workspace.jsonl') });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const lines = (file: string) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));

  it('groups by scope, workspace first and newest first; without a folder only the user group', () => {
    const records = [record('a', { created: 1 }), record('b', { scope: 'user' }), record('c', { created: 2 })];
    const groups = groupByScope(records, true);
    assert.deepEqual(
      groups.map((g) => [g.scope, g.records.map((r) => r.id)]),
      [
        ['workspace', ['c', 'a']],
        ['user', ['b']],
      ],
    );
    assert.deepEqual(
      groupByScope(records, false).map((g) => g.scope),
      ['user'],
    );
  });

  it('labels a row with the text on one line, cut with an ellipsis; the tooltip has all of it and the provenance', () => {
    const long = `Run the tests with npm test.\nThey need Node 20 ${'and more words '.repeat(10)}at the end.`;
    const r = record('m1', { text: long, tags: ['tests'], paths: [{ path: 'src/a.ts', hash: 'x' }], expires: NOW - DAY });
    const label = memoryLabel(r);
    assert.equal(label.length, 60);
    assert.ok(label.endsWith('…'));
    assert.ok(!label.includes('\n'));
    assert.equal(memoryDescription(r, NOW, ['src/a.ts']), 'the model concluded it · 3 d ago · expired · stale');
    const tip = memoryTooltip(r, NOW, ['src/a.ts']);
    assert.ok(tip.startsWith(long), 'the whole text first');
    for (const part of [
      'Scope: workspace',
      'Source: the model, task task-9 at event 14',
      'Confidence: the model concluded it',
      'Created: 2026-11-20 12:00 (3 d ago)',
      'Last used: 2026-11-22 12:00',
      'Expires: 2026-11-22 12:00 (expired)',
      'Tags: tests',
      'Files: src/a.ts',
      'Stale: src/a.ts changed since it was remembered',
      'Id: m1',
    ])
      assert.ok(tip.includes(part), part);
    const mine = record('m2', { source: { taskId: '', eventSeq: 0, author: 'user' }, confidence: 'stated', created: NOW });
    assert.match(memoryTooltip(mine, NOW, []), /Source: you, by hand\n/);
    assert.match(memoryTooltip(mine, NOW, []), /Expires: never/);
    assert.equal(memoryDescription(mine, NOW, []), 'you said it · just now');
  });

  it('Remember… keeps the user’s words as stated, author user, and refuses secrets and oversize text whole', async () => {
    const added = await rememberStated(store, 'Prefers tabs over spaces.', 'user', NOW, () => 'u1');
    assert.equal(added.ok, true);
    const [kept] = await store.list();
    assert.deepEqual(
      { id: kept!.id, scope: kept!.scope, confidence: kept!.confidence, source: kept!.source, created: kept!.created },
      { id: 'u1', scope: 'user', confidence: 'stated', source: { taskId: '', eventSeq: 0, author: 'user' }, created: NOW },
    );
    for (const bad of ['db password=hunter2', 'key sk-ant-api03-abcdefghijklmnop', 'x'.repeat(1001), '   ']) {
      const outcome = await rememberStated(store, bad, 'workspace', NOW);
      assert.equal(outcome.ok, false, bad.slice(0, 20));
      assert.equal(memoryTextProblem(bad), outcome.ok ? undefined : outcome.reason);
    }
    assert.match(memoryTextProblem('x'.repeat(1001))!, /1001 characters; a memory holds at most 1000/);
    assert.equal((await store.list()).length, 1, 'nothing refused was kept');
  });

  it('Edit writes a new record then a tombstone for the old one, keeping scope, files and expiry', async () => {
    const file = path.join(dir, 'w', 'workspace.jsonl');
    await store.append(record('old', { paths: [{ path: 'src/a.ts', hash: 'h1' }], expires: NOW + DAY, tags: ['t'] }));
    const outcome = await editMemory(store, 'old', 'The parser is generated, not hand written.', NOW, () => 'new');
    assert.equal(outcome.ok, true);
    const written = lines(file);
    assert.deepEqual(
      written.map((l) => l.tombstone ?? l.id),
      ['old', 'new', 'old'],
      'the old record stays on disk, the new one is appended, then the tombstone',
    );
    assert.equal(written[2].tombstone, 'old');
    const [live] = await store.list();
    assert.equal(live!.id, 'new');
    assert.equal(live!.text, 'The parser is generated, not hand written.');
    assert.deepEqual(live!.paths, [{ path: 'src/a.ts', hash: 'h1' }]);
    assert.equal(live!.expires, NOW + DAY);
    assert.deepEqual(live!.tags, ['t']);
    assert.equal(live!.confidence, 'stated');
    assert.deepEqual(live!.source, { taskId: '', eventSeq: 0, author: 'user' });
    // Reopened (compacted): only the edited record is left.
    assert.deepEqual(
      (await JsonlMemoryStore.open({ user: path.join(dir, 'g', 'user.jsonl'), workspace: file }).list()).map((r) => r.id),
      ['new'],
    );
  });

  it('an edit with a secret, or of a memory deleted meanwhile, changes nothing', async () => {
    await store.append(record('m'));
    const secret = await editMemory(store, 'm', 'token: ghp_abcdefghijklmnopqrstuvwxyz123456', NOW);
    assert.equal(secret.ok, false);
    const gone = await editMemory(store, 'absent', 'fine text', NOW);
    assert.deepEqual(gone, { ok: false, reason: 'This memory was deleted meanwhile (another window?); nothing was changed.' });
    assert.deepEqual(
      (await store.list()).map((r) => [r.id, r.text]),
      [['m', 'memory m']],
    );
  });

  it('tells the view after every change made through it (the model’s tools write through the same store)', async () => {
    const observed = new ObservedMemoryStore(store);
    let changes = 0;
    const off = observed.onDidChange(() => changes++);
    await rememberStated(observed, 'one', 'workspace', NOW, () => 'a');
    await editMemory(observed, 'a', 'two', NOW, () => 'b');
    assert.equal(changes, 3, 'append, then append + tombstone');
    assert.equal(await observed.tombstone('nope'), false);
    assert.equal(changes, 3, 'nothing changed, nothing told');
    off();
    await observed.tombstone('b');
    assert.equal(changes, 3);
  });

  it('keeps the user’s memories in global storage and the workspace’s in workspace storage, never in the workspace tree', () => {
    const ws = fs.mkdtempSync(path.join(dir, 'project-'));
    const files = extensionMemoryFiles({ global: path.join(dir, 'global'), workspace: path.join(dir, 'wsStorage') }, ws);
    assert.deepEqual(files, {
      user: path.join(dir, 'global', 'memory', 'user.jsonl'),
      workspace: path.join(dir, 'wsStorage', 'memory', 'workspace.jsonl'),
    });
    assert.deepEqual(extensionMemoryFiles({ global: path.join(dir, 'global') }, undefined), {
      user: path.join(dir, 'global', 'memory', 'user.jsonl'),
    });
    assert.throws(
      () => extensionMemoryFiles({ global: path.join(dir, 'global'), workspace: path.join(ws, '.vscode') }, ws),
      /outside the workspace/,
    );
  });

  it('two windows on the same files lose nothing and each sees the other’s memories', async () => {
    const files = extensionMemoryFiles(
      { global: path.join(dir, 'global'), workspace: path.join(dir, 'wsStorage') },
      path.join(dir, 'project'),
    );
    const one = JsonlMemoryStore.open(files);
    const two = JsonlMemoryStore.open(files);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 50; i++) {
      writes.push(rememberStated(one, `from one ${i}`, i % 2 ? 'user' : 'workspace', NOW, () => `one-${i}`));
      writes.push(rememberStated(two, `from two ${i}`, i % 2 ? 'user' : 'workspace', NOW, () => `two-${i}`));
    }
    await Promise.all(writes);
    await two.tombstone('one-0');
    assert.equal((await one.list()).length, 99);
    assert.equal((await JsonlMemoryStore.open(files).list()).length, 99);
  });

  it('the extension’s runtime offers the memory tools, carries the index in its prompt, and its writes reach the view', async () => {
    const observed = new ObservedMemoryStore(store);
    await rememberStated(observed, 'Tests run with npm test in this repo.', 'workspace', Date.now(), () => 'hand-1');
    let changes = 0;
    observed.onDidChange(() => changes++);
    const requests: ModelRequest[] = [];
    const factory = new RuntimeFactory({
      settings: () => readSettings((k) => (k === 'autoApprove' ? { globalValue: ['read'] } : undefined)),
      workspace: await createNodeWorkspace(fs.mkdtempSync(path.join(dir, 'project-'))),
      grants: { list: () => [], add: () => undefined },
      trusted: () => true,
      lookupKey: async () => ({ kind: 'not_needed' }),
      allowKeyDestination: async () => false,
      secrets: () => [],
      onRequest: (_id, r) => requests.push(r),
      providerOverride: () => new ScriptedProvider([toolTurn('recall', { query: 'tests' }), textTurn('Found it.')]),
      memory: observed,
    });
    const rt = factory.create({ taskId: 'task-1', events: [], store: new MemoryLogStore() });
    for await (const _ of rt.send('How do I run the tests?')) {
      // drain
    }
    const tools = requests[0]!.tools.map((t) => t.name);
    for (const name of ['remember', 'recall', 'forget']) assert.ok(tools.includes(name), name);
    assert.match(requests[0]!.system, /Memory: 1 memory is kept across tasks/);
    assert.match(requests[0]!.system, /\[hand-1\] Tests run with npm test in this repo\./);
    assert.match(JSON.stringify(requests[1]!.messages), /\[hand-1\] \(workspace, stated by user/);
    assert.equal(changes, 1, 'recall stamped last used through the observed store');
  });
});
