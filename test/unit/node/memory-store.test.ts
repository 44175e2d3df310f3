import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MemoryRecord } from '../../../src/kernel/index.js';
import { cliMemoryFiles, JsonlMemoryStore, memoryFilesIn } from '../../../src/node/memory-store.js';

const WRITER = path.resolve(__dirname, '../../fixtures/memory/append-writer.ts');

function record(id: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id,
    text: `memory ${id}`,
    scope: 'user',
    source: { taskId: 't', eventSeq: 1, author: 'user' },
    confidence: 'stated',
    created: 1,
    lastUsed: 1,
    tags: [],
    paths: [],
    ...extra,
  };
}

function writer(file: string, name: string, count: number, forget = false): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import=tsx', WRITER, file, name, String(count), forget ? 'forget' : ''], (err, _out, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(),
    ),
  );
}

describe('memory store (JSON Lines)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-memory-'));
    file = path.join(dir, 'memory', 'user.jsonl');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps records across opens, routes them by scope, and forgets tombstoned ones', async () => {
    const files = { user: file, workspace: path.join(dir, 'memory', 'ws.jsonl') };
    const store = JsonlMemoryStore.open(files);
    await store.append(record('u1'));
    await store.append(record('w1', { scope: 'workspace' }));
    await store.append(record('u2'));
    assert.equal(await store.tombstone('u2'), true);
    assert.equal(await store.tombstone('nope'), false);
    const again = JsonlMemoryStore.open(files);
    assert.deepEqual((await again.list()).map((r) => r.id).sort(), ['u1', 'w1']);
    assert.match(fs.readFileSync(files.workspace, 'utf8'), /"w1"/);
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /u2/, 'compaction on load drops the tombstoned record');
  });

  it('refuses a workspace memory when no workspace is open', async () => {
    const store = JsonlMemoryStore.open({ user: file });
    await assert.rejects(store.append(record('w', { scope: 'workspace' })), /No workspace folder is open/);
  });

  it('a later copy of a record replaces the earlier one; a tombstone is final', async () => {
    const store = JsonlMemoryStore.open({ user: file });
    await store.append(record('a'));
    await store.append(record('a', { lastUsed: 99 }));
    assert.equal((await store.list())[0]!.lastUsed, 99);
    await store.tombstone('a');
    await store.append(record('a', { lastUsed: 100 }));
    assert.deepEqual(await store.list(), []);
  });

  it('sees what another process appended since it opened', async function () {
    this.timeout(60_000); // starts a tsx child process, seconds on a loaded machine
    const store = JsonlMemoryStore.open({ user: file });
    await store.append(record('mine'));
    await writer(file, 'other', 3);
    assert.deepEqual((await store.list()).map((r) => r.id).sort(), ['mine', 'other-0', 'other-1', 'other-2']);
  });

  it('loses nothing when two processes append at the same time', async function () {
    this.timeout(60_000);
    await Promise.all([writer(file, 'a', 150), writer(file, 'b', 150)]);
    const ids = (await JsonlMemoryStore.open({ user: file }).list()).map((r) => r.id);
    assert.equal(ids.length, 300);
    for (const name of ['a', 'b']) for (let i = 0; i < 150; i++) assert.ok(ids.includes(`${name}-${i}`), `${name}-${i} kept`);
  });

  it('loses nothing when two processes append and forget while each compacts on open', async function () {
    this.timeout(60_000);
    await writer(file, 'seed', 20, true); // leaves tombstones, so each writer's open compacts
    await Promise.all([writer(file, 'a', 100, true), writer(file, 'b', 100, true), writer(file, 'c', 100, true)]);
    const ids = new Set((await JsonlMemoryStore.open({ user: file }).list()).map((r) => r.id));
    for (const name of ['seed', 'a', 'b', 'c'])
      for (let i = 0; i < (name === 'seed' ? 20 : 100); i++)
        assert.equal(ids.has(`${name}-${i}`), i % 2 === 0, `${name}-${i} ${i % 2 === 0 ? 'kept' : 'forgotten'}`);
  });

  it('keeps a line another process is still writing when it compacts on open', async () => {
    // A write that crosses a page is seen in parts: the open reads half a tombstone, and the
    // writer's other half lands while the open compacts. The whole line must survive.
    const seed = JsonlMemoryStore.open({ user: file });
    await seed.append(record('gone'));
    await seed.append(record('stale'));
    await seed.tombstone('stale'); // something to drop, so the open compacts
    const line = `\n${JSON.stringify({ tombstone: 'gone', at: 2 })}\n`;
    const half = Math.floor(line.length / 2);
    fs.appendFileSync(file, line.slice(0, half));
    const nodeFs: typeof fs = require('node:fs'); // the module object itself, which the store's import reads through
    const rename = nodeFs.renameSync;
    nodeFs.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
      nodeFs.appendFileSync(file, line.slice(half)); // the writer's write completes, in the old file
      rename(from, to);
    };
    try {
      JsonlMemoryStore.open({ user: file });
    } finally {
      nodeFs.renameSync = rename;
    }
    assert.deepEqual(await JsonlMemoryStore.open({ user: file }).list(), [], 'the tombstone written meanwhile was lost');
  });

  it('sets a torn last line aside and keeps every complete record', async () => {
    const store = JsonlMemoryStore.open({ user: file });
    await store.append(record('before'));
    fs.appendFileSync(file, '{"id":"half","text":"cut of');
    const reopened = JsonlMemoryStore.open({ user: file });
    assert.deepEqual(
      (await reopened.list()).map((r) => r.id),
      ['before'],
    );
    assert.equal(reopened.problems.length, 1);
    assert.match(fs.readFileSync(`${file}.torn`, 'utf8'), /cut of/, 'the torn text is kept aside');
    await reopened.append(record('after'));
    assert.deepEqual(
      (await JsonlMemoryStore.open({ user: file }).list()).map((r) => r.id),
      ['before', 'after'],
    );
  });

  it('a record appended after a torn line (no reopen) is still read whole', async () => {
    const store = JsonlMemoryStore.open({ user: file });
    fs.appendFileSync(file, '{"id":"half"');
    await store.append(record('next'));
    assert.deepEqual(
      (await JsonlMemoryStore.open({ user: file }).list()).map((r) => r.id),
      ['next'],
    );
  });

  it('keeps memories out of the workspace tree', () => {
    const ws = fs.mkdtempSync(path.join(dir, 'ws-'));
    const files = cliMemoryFiles(ws, { XDG_CONFIG_HOME: path.join(dir, 'config') });
    assert.equal(files.user, path.join(dir, 'config', 'keel', 'memory', 'user.jsonl'));
    assert.ok(files.workspace!.startsWith(path.join(dir, 'config', 'keel', 'memory', 'workspaces')));
    assert.throws(() => memoryFilesIn(path.join(ws, '.keel'), ws), /outside the workspace/);
  });
});
