// What the OS sandbox costs a command: `true` started as Keel starts commands — as approved
// (bash in its own group, with the keeper process), read-only in the sandbox, and as a test run
// in the sandbox (which walks the workspace before and after for protected paths) — against a
// baseline that is not Keel's: bash started directly by child_process. Medians over RUNS runs
// after a warm-up, in the workspace given (default: this checkout, node_modules not walked).
// Prints them with ratios to the baseline and the load average; writes bench/results/sandbox.json.
//
//   npm run bench:sandbox [-- /path/to/workspace]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import type { SandboxProfile } from '../src/kernel/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { COMMAND_SANDBOX_RULES } from '../src/tools/index.js';
import { median, round, writeResults } from './report.js';

const RUNS = 40;
const WARMUP = 5;

function bare(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['--noprofile', '--norc', '-c', 'true'], { cwd, stdio: 'ignore', detached: true });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = performance.now();
    await run();
    if (i >= WARMUP) times.push(performance.now() - t);
  }
  return round(median(times));
}

async function main(): Promise<void> {
  const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
  const ws = await createNodeWorkspace(root, { sandbox: { rules: COMMAND_SANDBOX_RULES } });
  const status = ws.sandbox?.status();
  if (status?.type !== 'ready') throw new Error(`no sandbox here: ${status?.type === 'unavailable' ? status.reason : 'none'}`);
  const signal = new AbortController().signal;
  const keel = (sandbox: SandboxProfile) => () => ws.runProcess('true', { timeoutMs: 30_000, signal, maxCaptureChars: 1000, sandbox });
  const baselineMs = await timed(() => bare(root));
  const approvedMs = await timed(keel('none'));
  const readOnlyMs = await timed(keel('read_only'));
  const testRunMs = await timed(keel('test_run'));
  const load = loadavg().map((x) => round(x, 2));
  const ratio = (ms: number) => round(ms / baselineMs, 2);
  const file = writeResults('sandbox', {
    workspace: root,
    runs: RUNS,
    baselineMs,
    approvedMs,
    readOnlyMs,
    testRunMs,
    approvedRatio: ratio(approvedMs),
    readOnlyRatio: ratio(readOnlyMs),
    testRunRatio: ratio(testRunMs),
    loadavg: load,
  });
  console.log(`\`true\` in ${root}, median of ${RUNS} runs (load average ${load.join(' ')}):`);
  console.log(`  bash started directly (baseline)  ${baselineMs} ms`);
  console.log(`  as approved (keeper)              ${approvedMs} ms  ×${ratio(approvedMs)}`);
  console.log(`  sandboxed read-only               ${readOnlyMs} ms  ×${ratio(readOnlyMs)}`);
  console.log(`  sandboxed test run (scans twice)  ${testRunMs} ms  ×${ratio(testRunMs)}`);
  console.log(`→ ${file}`);
}

if (require.main === module) void main();
