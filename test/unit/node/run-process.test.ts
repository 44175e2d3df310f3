import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { runProcess } from '../../../src/node/run-process.js';
import type { Workspace } from '../../../src/kernel/index.js';
import { FakeClock } from '../presenter/fake-clock.js';

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

/** Waits for `check` to hold: a hang guard of 20 s, not a timing claim. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 20_000; !check(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
  }
}

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

  /** Resolves once the process has printed `marker`; pass `onOutput` to runProcess. */
  const printed = (marker: string) => {
    let seen = '';
    let resolve = () => {};
    const done = new Promise<void>((r) => (resolve = r));
    return { done, onOutput: (chunk: string) => (seen += chunk).includes(marker) && resolve() };
  };

  // The timeout and the kill grace run on a clock moved by hand: the process is timed out when
  // the test says, after its grandchild has started, however busy the machine is.
  it('on timeout kills the whole process group, grandchildren included', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const clock = new FakeClock();
    const started = printed('started');
    const running = runProcess(
      `sh -c 'sleep 30 & echo $! > ${pidFile}; echo started; wait' ; echo never`,
      dir,
      opts({ timeoutMs: 500, onOutput: started.onOutput }),
      { timers: clock },
    );
    await started.done;
    clock.advance(500);
    const r = await running;
    assert.equal(r.timedOut, true);
    assert.doesNotMatch(r.stdout.head, /never/, 'the shell was ended too');
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    await until(() => !alive(pid), 'the grandchild to end');
  });

  it('kills a grandchild that ignores SIGTERM once the grace period is over', async () => {
    const pidFile = path.join(dir, 'stubborn.pid');
    const clock = new FakeClock();
    const started = printed('started');
    const running = runProcess(
      `sh -c 'trap "" TERM; sleep 30 & echo $! > ${pidFile}; echo started; wait'`,
      dir,
      opts({ timeoutMs: 500, onOutput: started.onOutput }),
      { timers: clock },
    );
    await started.done;
    clock.advance(500); // SIGTERM, which the grandchild ignores
    clock.advance(2000); // the grace is over: SIGKILL
    assert.equal((await running).timedOut, true);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    await until(() => !alive(pid), 'the grandchild to end');
  });

  it('on abort kills the group and reports cancelled', async () => {
    const ac = new AbortController();
    const started = printed('started');
    void started.done.then(() => ac.abort());
    const r = await ws.runProcess('echo started; sleep 20', opts({ signal: ac.signal, onOutput: started.onOutput }));
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
