// The OS sandbox on Linux: Debian's bubblewrap, found at fixed paths (never on PATH, which is the
// environment's to change) and tried once per process on a scratch folder. Unavailable — not
// Linux, no bwrap, or bwrap cannot make its namespaces here — it says why, once, and the policy
// then asks before every command. A sandbox that fails to start a command later is unavailable
// from then on, the same way.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPathRules, SandboxProfile, SandboxStatus, SandboxSupport } from '../../kernel/index.js';
import { withoutCredentials } from '../environment-block.js';
import { bwrapArgs, STATUS_FD } from './bwrap-args.js';
import { inheritedDescriptors, withoutDescriptors } from './inherited-fds.js';
import { toolchainView } from './toolchain-view.js';
import { changedKept, createdHidden, restoreKept, scanWorkspace, type ScanResult } from './workspace-scan.js';

const BWRAP_PATHS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];
const PROBE_TIMEOUT_MS = 10_000;

export interface NodeSandboxOptions {
  /** What the sandbox hides and keeps read-only in the workspace (the policy's protected paths). */
  rules: SandboxPathRules;
  /** bwrap's path; absent: looked for at fixed places; null: no sandbox. */
  bwrapPath?: string | null;
  /** Told once, when the sandbox is found unavailable or stops working. */
  onUnavailable?(reason: string): void;
  /**
   * Keel's folder for the toolchains' caches a test run writes (Go's build cache, jest's…), one
   * folder per workspace under it (keelSandboxCacheDir); absent: nothing is kept between runs.
   */
  cacheDir?: string;
  /**
   * Folders outside the workspace a command may read, bound read-only where they are: a worktree
   * session's dependency folders, linked from the main folder (src/node/worktrees/dependencies.ts).
   */
  readOnly?: readonly string[];
}

/** A command line to start in the sandbox, and the check after it ended. */
export interface SandboxLaunch {
  file: string;
  args: string[];
  /** Protected paths the run created or replaced, already undone (a test run only), and what could not be checked. */
  afterRun(): AfterRun;
  /** What the sandbox hid that the command may have needed (a link out of the workspace), for its result. */
  notices?: string[];
}

export interface AfterRun {
  undone: string[];
  /** Why the check after the run was not whole (the sandbox then asks before every command). */
  problem?: string;
}

export interface NodeSandbox extends SandboxSupport {
  /**
   * bwrap's command line for `argv` started in `cwd` (absolute) under `profile`; `status`: bwrap
   * reports on descriptor 3 that the command started (false for a starter that opens no such descriptor).
   */
  launch(
    argv: readonly string[],
    cwd: string,
    profile: Exclude<SandboxProfile, 'none'>,
    env: Record<string, string>,
    status?: boolean,
  ): SandboxLaunch;
  /** bwrap ended before starting a command: nothing runs sandboxed from now on. */
  failed(reason: string): void;
}

const probes = new Map<string, Promise<SandboxStatus>>();

export async function createNodeSandbox(root: string, options: NodeSandboxOptions): Promise<NodeSandbox> {
  const bwrap = options.bwrapPath === undefined ? BWRAP_PATHS.find(isExecutable) : options.bwrapPath;
  let status: SandboxStatus = await initialStatus(bwrap, options.rules);
  const unavailable = (reason: string) => {
    if (status.type === 'unavailable') return;
    status = { type: 'unavailable', reason };
    options.onUnavailable?.(reason);
  };
  if (status.type === 'unavailable') options.onUnavailable?.(status.reason);
  return {
    status: () => status,
    failed: unavailable,
    launch(argv, cwd, profile, env, report = true) {
      if (status.type !== 'ready' || !bwrap) throw new Error(`no sandbox is available (${status.type === 'ready' ? '' : status.reason})`);
      const scan = scanWorkspace(root, options.rules, profile === 'test_run');
      if (scan.incomplete) {
        unavailable(`the sandbox cannot check this workspace: ${scan.incomplete}`);
        throw new Error(scan.incomplete);
      }
      const view = toolchainView({ root, env, cacheDir: options.cacheDir });
      const toolchains = [...view.args, ...readOnlyBinds(options.readOnly ?? [])];
      const args = bwrapArgs({ root, cwd, profile, scan, env, argv, status: report, toolchains });
      const fds = inheritedDescriptors().filter((fd) => !(report && fd === STATUS_FD));
      const afterRun = () => {
        const r = undoProtected(root, options.rules, scan, profile);
        if (r.problem) unavailable(r.problem);
        return r;
      };
      return { ...withoutDescriptors(bwrap, args, fds), afterRun, notices: view.notices };
    },
  };
}

/**
 * After a test run: protected paths it created are removed, links it replaced put back. Never
 * throws: what it could not check or undo is its problem, and every command asks from then on.
 */
function undoProtected(root: string, rules: SandboxPathRules, before: ScanResult, profile: SandboxProfile): AfterRun {
  if (profile !== 'test_run') return { undone: [] };
  const after = scanWorkspace(root, rules, true, { withLinks: false });
  const changed = [
    ...changedKept(before.kept, after.kept).filter((p) => !createdByRunner(root, rules, p, before)),
    ...createdHidden(before, after),
  ];
  const failed: string[] = [];
  for (const p of changed) {
    try {
      restoreKept(p, before.kept);
    } catch {
      failed.push(path.relative(root, p));
    }
  }
  const undone = changed.map((p) => path.relative(root, p)).filter((p) => !failed.includes(p));
  const problems = [
    ...(after.incomplete ? [`the check after the command stopped (${after.incomplete}): protected paths deeper in may remain`] : []),
    ...(failed.length ? [`could not undo ${failed.slice(0, 10).join(', ')}`] : []),
  ];
  return problems.length ? { undone, problem: `${problems.join('; ')}; every command asks from now on` } : { undone };
}

/** A protected path the runner made where there was none (a first Cargo.lock): kept, and not the run's change to report. */
function createdByRunner(root: string, rules: SandboxPathRules, abs: string, before: ScanResult): boolean {
  if (before.kept.has(abs) || !rules.runnerWrites) return false;
  const exists = (rel: string) => fs.existsSync(path.join(root, rel));
  return rules.runnerWrites(path.relative(root, abs).split(path.sep).join('/'), exists);
}

function initialStatus(bwrap: string | null | undefined, rules: SandboxPathRules): Promise<SandboxStatus> {
  if (process.platform !== 'linux') return Promise.resolve({ type: 'unavailable', reason: 'the sandbox (bubblewrap) runs on Linux only' });
  if (!bwrap) return Promise.resolve({ type: 'unavailable', reason: 'bubblewrap (bwrap) is not installed' });
  let probe = probes.get(bwrap);
  if (!probe) {
    probe = tryBwrap(bwrap, rules);
    probes.set(bwrap, probe);
  }
  return probe;
}

/** Starts `true` in a read-only sandbox over a scratch folder, the way every command starts. */
async function tryBwrap(bwrap: string, rules: SandboxPathRules): Promise<SandboxStatus> {
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-sandbox-probe-')));
  try {
    const scan = scanWorkspace(scratch, rules, false);
    const args = bwrapArgs({
      root: scratch,
      cwd: scratch,
      profile: 'read_only',
      scan,
      env: process.env,
      argv: ['/bin/sh', '-c', 'exit 0'],
    });
    const r = await runProbe(bwrap, args);
    if (r.code === 0 && r.started) return { type: 'ready' };
    return {
      type: 'unavailable',
      reason: `bubblewrap could not start a sandbox here: ${r.stderr.trim().split('\n')[0] || `exit ${r.code}`}`,
    };
  } catch (err) {
    return { type: 'unavailable', reason: `bubblewrap could not be run: ${(err as Error).message}` };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function runProbe(bwrap: string, args: string[]): Promise<{ code: number | null; started: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const stdio: ('ignore' | 'pipe')[] = ['ignore', 'ignore', 'pipe', 'pipe'];
    // Started without Keel's keys: its environment block is readable while it runs.
    const child = spawn(bwrap, args, { stdio: stdio.slice(0, STATUS_FD + 1), env: withoutCredentials() });
    let stderr = '';
    let status = '';
    child.stderr?.on('data', (d) => (stderr += d));
    child.stdio[STATUS_FD]?.on('data', (d) => (status += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // bwrap reports the exit code of a command it started; a sandbox that never started one reports none.
      resolve({ code, started: status.includes('"exit-code"'), stderr });
    });
  });
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `--ro-bind-try` for each folder: one deleted since the session began is skipped, not fatal. */
function readOnlyBinds(folders: readonly string[]): string[] {
  return folders.flatMap((p) => ['--ro-bind-try', p, p]);
}
