import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import type { Workspace } from '../../../src/kernel/index.js';

/** Running, not just a zombie waiting for init (which may reap slowly in a container). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
};

describe('Node workspace: runProcess', function () {
  this.timeout(30_000);
  let dir: string;
  let ws: Workspace;
  const opts = (o: Partial<Parameters<Workspace['runProcess']>[1]> = {}) => ({
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    maxCaptureChars: 1000,
    ...o,
  });

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'keel-proc-'));
    ws = await createNodeWorkspace(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('captures stdout, stderr, combined and the exit code', async () => {
    const r = await ws.runProcess('echo out; echo err >&2; exit 3', opts());
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout.head, 'out\n');
    assert.equal(r.stderr.head, 'err\n');
    assert.match(r.combined.head, /out\n/);
    assert.equal(r.timedOut, false);
  });

  it('keeps head and tail of 50 MB of output with bounded memory', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const r = await ws.runProcess(
      "printf 'START\\n'; head -c 52428800 /dev/zero | tr '\\0' 'a'; printf '\\nEND\\n'",
      opts({ maxCaptureChars: 4000, timeoutMs: 60_000 }),
    );
    clearInterval(timer);
    assert.equal(r.exitCode, 0);
    assert.ok(r.stdout.head.startsWith('START\n'));
    assert.ok(r.stdout.tail.endsWith('\nEND\n'));
    assert.equal(r.stdout.totalChars, 52428800 + 11);
    assert.equal(r.stdout.head.length + r.stdout.tail.length, 8000);
    assert.equal(r.stdout.omittedChars, 52428800 + 11 - 8000);
    const growthMb = (peak - before) / 1024 / 1024;
    assert.ok(growthMb < 25, `RSS grew by ${growthMb.toFixed(1)} MB`);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const started = Date.now();
    const r = await ws.runProcess(`sh -c 'sleep 30 & echo $! > ${pidFile}; wait' ; echo never`, opts({ timeoutMs: 500 }));
    assert.equal(r.timedOut, true);
    assert.ok(Date.now() - started < 5000);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(alive(pid), false, 'grandchild still running');
  });

  it('on abort kills the group and reports cancelled', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await ws.runProcess('sleep 20', opts({ signal: ac.signal }));
    assert.equal(r.cancelled, true);
    assert.equal(r.timedOut, false);
  });

  it('streams output as it arrives', async () => {
    const chunks: string[] = [];
    await ws.runProcess('echo one; echo two', opts({ onOutput: (c) => chunks.push(c) }));
    assert.equal(chunks.join(''), 'one\ntwo\n');
  });

  it('refuses a cwd outside the workspace', async () => {
    await assert.rejects(ws.runProcess('pwd', opts({ cwd: '..' })));
  });
});
