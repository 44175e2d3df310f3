import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EventLog, LOG_FORMAT_VERSION, replay } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog, LogFormatError } from '../../../src/node/jsonl-store.js';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { drain, makeRuntime } from '../kernel/helpers.js';

describe('JSON Lines log store', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-log-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function recordTask(file: string) {
    const store = JsonlLogStore.open(file);
    const { runtime } = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' }, 'Writing.'), textTurn('Done.')], { store });
    await drain(runtime.send('go'), (id) => runtime.approve(id, 'task'));
    await store.close();
    return runtime;
  }

  it('replays a log from disk into the exact live state', async () => {
    const file = path.join(dir, 'task.jsonl');
    const runtime = await recordTask(file);
    const loaded = loadLog(file);
    assert.equal(loaded.version, LOG_FORMAT_VERSION);
    assert.equal(loaded.torn, undefined);
    assert.deepEqual(loaded.invalid, []);
    assert.equal(loaded.events.length, runtime.getEvents().length);
    assert.deepEqual(replay(loaded.events), runtime.getState());
  });

  it('loads every complete line of a log whose last line is torn, and reports the torn one', async () => {
    const file = path.join(dir, 'task.jsonl');
    const runtime = await recordTask(file);
    const full = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, full.slice(0, full.length - 15)); // cut mid-line, as a crash would
    const loaded = loadLog(file);
    assert.equal(loaded.events.length, runtime.getEvents().length - 1);
    assert.ok(loaded.torn, 'the torn line is reported');
    assert.equal(loaded.torn!.line, full.split('\n').length - 1);
    // Reopening for append moves the torn tail aside and continues cleanly.
    const store = JsonlLogStore.open(file);
    await store.close();
    assert.ok(fs.existsSync(`${file}.torn`));
    const reloaded = loadLog(file);
    assert.equal(reloaded.torn, undefined);
    assert.equal(reloaded.events.length, runtime.getEvents().length - 1);
  });

  it('reports a corrupt middle line instead of dropping it silently', async () => {
    const file = path.join(dir, 'task.jsonl');
    await recordTask(file);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[3] = '{"type":"text_delta", garbage';
    fs.writeFileSync(file, lines.join('\n'));
    const loaded = loadLog(file);
    assert.equal(loaded.invalid[0]!.line, 4);
    // Everything after it is reported too (state folded across a lost event would be wrong),
    // and what loads is the unbroken run of events before it: a runtime can take it.
    assert.equal(loaded.invalid.length, lines.filter((l) => l.trim() !== '').length - 3);
    assert.deepEqual(
      loaded.events.map((e) => e.seq),
      [1, 2],
    );
    assert.match(loaded.invalid.at(-1)!.reason, /sequence 3 expected/);
    assert.doesNotThrow(() => new EventLog(undefined, loaded.events));
  });

  it('refuses a file that is not a Keel log, or from a newer format', () => {
    const file = path.join(dir, 'x.jsonl');
    fs.writeFileSync(file, '{"hello":1}\n');
    assert.throws(() => loadLog(file), LogFormatError);
    fs.writeFileSync(file, `${JSON.stringify({ kind: 'keel-event-log', version: LOG_FORMAT_VERSION + 1 })}\n`);
    assert.throws(() => loadLog(file), /newer Keel/);
  });
});
