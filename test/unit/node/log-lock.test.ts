// A task log's lock (src/node/log-lock.ts): one holder at a time, who holds it said to the next,
// a lock whose process is gone taken over, and an unreadable or foreign one never guessed at.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lockFileOf, lockLog } from '../../../src/node/log-lock.js';
import { scratchDir } from '../../support/scratch.js';

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('log lock', () => {
  let log: string;
  beforeEach(() => {
    log = path.join(scratchDir('log-lock'), 'task.jsonl');
  });

  it('is held by one at a time; the second is told who holds it, and may take it once released', () => {
    const first = lockLog(log);
    assert.equal(first.type, 'held');
    const holder = JSON.parse(fs.readFileSync(lockFileOf(log), 'utf8'));
    assert.equal(holder.pid, process.pid);
    assert.equal(holder.host, os.hostname());
    const second = lockLog(log, 'task.jsonl');
    assert.equal(second.type, 'busy');
    assert.match(
      second.type === 'busy' ? second.message : '',
      new RegExp(`^task\\.jsonl is being written by another Keel \\(pid ${process.pid} on `),
    );
    if (first.type === 'held') first.release();
    assert.equal(fs.existsSync(lockFileOf(log)), false, 'released: the lock file is gone');
    const third = lockLog(log);
    assert.equal(third.type, 'held');
    if (third.type === 'held') third.release();
  });

  it('takes over a lock whose process is gone on this host', () => {
    fs.writeFileSync(lockFileOf(log), JSON.stringify({ pid: deadPid(), host: os.hostname(), startedAt: '2026-01-01T00:00:00Z' }));
    const lock = lockLog(log);
    assert.equal(lock.type, 'held');
    assert.equal(JSON.parse(fs.readFileSync(lockFileOf(log), 'utf8')).pid, process.pid);
    if (lock.type === 'held') lock.release();
  });

  it("refuses another host's lock and one it cannot read, saying what to remove", () => {
    fs.writeFileSync(lockFileOf(log), JSON.stringify({ pid: deadPid(), host: 'elsewhere\u001b[2J', startedAt: 'then' }));
    const foreign = lockLog(log);
    assert.equal(foreign.type, 'busy');
    assert.match(foreign.type === 'busy' ? foreign.message : '', /on elsewhere\?\[2J, since then\): .* remove .*task\.jsonl\.lock/);
    fs.writeFileSync(lockFileOf(log), 'garbage');
    const unreadable = lockLog(log);
    assert.equal(unreadable.type, 'busy');
    assert.match(unreadable.type === 'busy' ? unreadable.message : '', /not a lock Keel can read; remove it/);
    assert.equal(fs.readFileSync(lockFileOf(log), 'utf8'), 'garbage', 'left as it was');
  });

  it('leaves a lock that another process has taken since alone when released', () => {
    const lock = lockLog(log);
    const other = JSON.stringify({ pid: process.pid + 1, host: os.hostname(), startedAt: 'later' });
    fs.writeFileSync(lockFileOf(log), other);
    if (lock.type === 'held') lock.release();
    assert.equal(fs.readFileSync(lockFileOf(log), 'utf8'), other);
  });
});
