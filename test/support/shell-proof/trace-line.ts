// Runs one command line exactly as run_command does — `bash --noprofile --norc -c LINE` in a new
// session, stdin from /dev/null, cwd the workspace — under `strace -f`, and returns every system
// call that could change something, reach the network, run a program or read a file.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { parseStraceLog, type Syscall } from './strace-log.js';
import { SYSTEM_CHANGES, TRACED } from './syscalls.js';

const OUTPUT_LIMIT = 1 << 20;

export interface TracedRun {
  calls: Syscall[];
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  ms: number;
}

export interface Tracer {
  strace: string;
  bash: string;
}

/** strace and bash on this machine, or why the proof cannot run here. */
export function findTracer(): Tracer | { missing: string } {
  const strace = which('strace');
  const bash = which('bash');
  if (!strace) return { missing: 'strace is not installed (scripts/setup-e2e.sh installs it)' };
  if (!bash) return { missing: 'bash is not installed' };
  // ptrace may be forbidden (containers without CAP_SYS_PTRACE, Yama scope 3).
  const probe = spawnSync(strace, ['-f', '-qq', '-e', 'trace=execve', '-o', '/dev/null', bash, '-c', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) return { missing: `strace cannot trace here: ${(probe.stderr || probe.error?.message || '').trim()}` };
  return { strace, bash };
}

/**
 * The tracer, or a skip: outside CI a machine without strace (or where ptrace is forbidden)
 * skips with a note; in CI (CI=true) that is a failure, since `npm test` installs strace.
 */
export function tracerOrSkip(ctx: Mocha.Context): Tracer {
  const t = findTracer();
  if (!('missing' in t)) return t;
  if (process.env.CI) throw new Error(`the shell proof cannot run: ${t.missing}`);
  console.log(`      (skipped: ${t.missing})`);
  ctx.skip();
}

function which(name: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p.startsWith('/') ? p : undefined;
}

export interface TraceOptions {
  cwd: string;
  env: Record<string, string>;
  traceFile: string;
  timeoutMs: number;
}

export function traceLine(tracer: Tracer, line: string, o: TraceOptions): Promise<TracedRun> {
  const started = Date.now();
  fs.rmSync(o.traceFile, { force: true });
  const args = ['-f', '--seccomp-bpf', '-qq', '-y', '-xx', '-s', '4096', '-e', 'signal=none'];
  args.push('-e', `trace=${TRACED.join(',')}`, '-e', `inject=${SYSTEM_CHANGES.join(',')}:error=EPERM`);
  const child = spawn(tracer.strace, [...args, '-o', o.traceFile, tracer.bash, '--noprofile', '--norc', '-c', line], {
    cwd: o.cwd,
    env: o.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const keep = (key: 'stdout' | 'stderr') => (d: Buffer) => {
    if (out[key].length < OUTPUT_LIMIT) out[key] += d.toString('utf8');
  };
  child.stdout.on('data', keep('stdout'));
  child.stderr.on('data', keep('stderr'));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, o.timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const calls = fs.existsSync(o.traceFile) ? parseStraceLog(fs.readFileSync(o.traceFile, 'utf8')) : [];
      // A traced process that left the group (setsid, a timeout wrapper) must not outlive the line.
      if (timedOut) for (const pid of new Set(calls.map((c) => c.pid))) killPid(pid);
      resolve({ calls, ...out, exitCode: code, timedOut, ms: Date.now() - started });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
