// A task log sealed with the user's key: what Keel wrote verifies, line for line; any change to
// the header or a line, a line added, a seal stripped off, or another user's key is told apart,
// and a resumed log's appended lines carry the chain on. The key is made once, for the user only.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replay } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { existingLogKey, userLogKey } from '../../../src/node/log-seal.js';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { drain, makeRuntime } from '../kernel/helpers.js';
import { scratchDir } from '../../support/scratch.js';

const POLICY = {
  autoApprove: ['read' as const],
  approveUnclassified: false,
  commandsAllow: [],
  commandsDeny: [],
  sandbox: 'unasked' as const,
};

describe('the seal of a task log', () => {
  let env: NodeJS.ProcessEnv;
  let file: string;
  beforeEach(() => {
    env = { XDG_CONFIG_HOME: scratchDir('seal-cfg') };
    file = path.join(scratchDir('seal-log'), 'task.jsonl');
  });

  async function recordSealed(target = file) {
    const store = JsonlLogStore.open(target, { policy: POLICY }, userLogKey(env));
    const { runtime } = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' }, 'Writing.'), textTurn('Done.')], { store });
    await drain(runtime.send('go'), (id) => runtime.approve(id, 'task'));
    await store.close();
    return runtime;
  }

  const lines = () => fs.readFileSync(file, 'utf8').split('\n');
  const rewrite = (edit: (l: string[]) => void) => {
    const l = lines();
    edit(l);
    fs.writeFileSync(file, l.join('\n'));
  };

  it('verifies a log Keel wrote, and loads the same events as an unsealed one', async () => {
    const runtime = await recordSealed();
    const loaded = loadLog(file, userLogKey(env));
    assert.deepEqual(loaded.seal, { type: 'verified' });
    assert.deepEqual(loaded.policy, POLICY);
    assert.deepEqual(loaded.events, runtime.getEvents());
    assert.deepEqual(replay(loaded.events), runtime.getState());
    assert.deepEqual(loadLog(file).seal, { type: 'unchecked' }, 'without a key nothing is claimed');
  });

  it('names the line that changed: the header, an event, a line added', async () => {
    await recordSealed();
    const key = userLogKey(env);
    const original = fs.readFileSync(file, 'utf8');
    rewrite((l) => (l[0] = l[0]!.replace('"autoApprove":["read"]', '"autoApprove":["read","write","execute"]')));
    assert.deepEqual(loadLog(file, key).seal, { type: 'broken', line: 1, otherKey: false });

    fs.writeFileSync(file, original);
    rewrite((l) => (l[3] = l[3]!.replace('"seq":3', '"seq":3 ')));
    assert.deepEqual(loadLog(file, key).seal, { type: 'broken', line: 4, otherKey: false });

    fs.writeFileSync(file, original);
    rewrite((l) => l.splice(l.length - 1, 0, l[2]!));
    assert.equal(loadLog(file, key).seal.type, 'broken');
  });

  it('calls a log whose seal was stripped unsealed, and one sealed by another key broken', async () => {
    await recordSealed();
    const other = { XDG_CONFIG_HOME: scratchDir('seal-other') };
    assert.deepEqual(loadLog(file, userLogKey(other)).seal, { type: 'broken', line: 1, otherKey: true });
    rewrite((l) => (l[0] = JSON.stringify({ kind: 'keel-event-log', version: 1, policy: POLICY })));
    assert.deepEqual(loadLog(file, userLogKey(env)).seal, { type: 'unsealed' });
  });

  it('carries the chain on when a log is appended to again, past a torn line', async () => {
    await recordSealed();
    fs.appendFileSync(file, '{"type":"user_mes');
    const loaded = loadLog(file, userLogKey(env));
    assert.deepEqual(loaded.seal, { type: 'verified' }, 'a torn last line is the crash, not a change');
    const store = JsonlLogStore.open(file, {}, userLogKey(env));
    const next = loaded.events.at(-1)!.seq + 1;
    store.append([{ type: 'user_message', text: 'more', seq: next, runId: 'r2', time: 1 }]);
    await store.close();
    const again = loadLog(file, userLogKey(env));
    assert.deepEqual(again.seal, { type: 'verified' });
    assert.equal(again.events.at(-1)?.seq, next);
  });

  it('makes the key once, readable by the user alone', () => {
    assert.equal(existingLogKey(env), undefined, 'checking never makes a key');
    const first = userLogKey(env);
    const second = userLogKey(env);
    assert.equal(first.id, second.id);
    assert.equal(fs.statSync(first.file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(first.file)).mode & 0o077, 0);
  });
});
