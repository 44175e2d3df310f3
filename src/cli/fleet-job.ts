// One attempt at a fleet job on this machine: a fresh folder with a copy (or clone) of the job's
// workspace, the task run through executeTask — the same composed runtime as `keel run` — under
// the job's fixed approvals (the headless policy: nobody is asked), the worker's provider behind
// the fleet's model gate, the job's caps and the fleet's budget, and the worker's passed variables
// (a job chooses none); then its result, kept in the folder and returned. A job comes from a queue
// anyone with the Redis URL can write: its approvals, allowed commands and sandbox mode are
// narrowed by the worker's flags (their ceiling), never widened. A task that fails is a result,
// never a thrown error.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { DEFAULT_MAX_TURNS, redactSecrets, SUBAGENT_DEFAULTS, type Risk, type RunPolicy } from '../kernel/index.js';
import { secretDetector, unstartedResult } from '../compose/index.js';
import {
  gatedProvider,
  jobFolder,
  prepareWorkspace,
  removeFolder,
  type FleetBudget,
  type FleetJob,
  type AllowedFolders,
  type FleetResult,
  type ModelGate,
} from '../fleet/index.js';
import type { RunOptions } from './args.js';
import { rejectAll } from './approvals.js';
import type { WorkerFlags } from './fleet-args.js';
import { executeTask, type TaskPorts } from './task-run.js';
import { narrowedBy, narrowPolicy } from './policy-ceiling.js';
import { withPolicy } from './task-runtime.js';

const ALL_RISKS: Risk[] = ['read', 'write', 'execute', 'network'];

export interface JobEnvironment {
  flags: WorkerFlags;
  /** The local folders jobs may use (see AllowedFolders). */
  allowed: AllowedFolders;
  gate: ModelGate;
  budget: FleetBudget;
  env: NodeJS.ProcessEnv;
  /** Warnings of the job's run (skills, MCP), prefixed with the job's id. */
  stderr: NodeJS.WritableStream;
  /** Says once for the whole worker that there is no OS sandbox (sandboxNotice). */
  onSandboxUnavailable(reason: string): void;
  worker: string;
}

/** What a job's commands get where there is no sandbox (the headless policy: what asks is refused). */
export const NO_SANDBOX_JOBS = 'Commands that would run unasked are refused; only a job approving "all" runs commands, unsandboxed.';

export function workerName(): string {
  return `${os.hostname()}:${process.pid}`;
}

export async function runFleetJob(
  job: FleetJob,
  context: { jobId: string; attempt: number; signal: AbortSignal; onEvent?: TaskPorts['onEvent'] },
  host: JobEnvironment,
): Promise<FleetResult> {
  const startedAt = new Date();
  const folder = jobFolder(host.flags.dir, context.jobId, context.attempt);
  const record = (result: FleetResult['result']): FleetResult => {
    const kept = { jobId: context.jobId, worker: host.worker, attempt: context.attempt, folder: folder.dir, result };
    fs.mkdirSync(folder.dir, { recursive: true });
    fs.writeFileSync(folder.result, `${JSON.stringify(kept, null, 2)}\n`);
    return kept;
  };
  const model = job.model ?? host.flags.model ?? '';
  const spent = await host.budget.spentOut();
  if (spent)
    return record(unstartedResult({ task: job.task, workspace: folder.workspace, model, status: 'over_budget', reason: spent, startedAt }));
  try {
    await prepareWorkspace(job, folder, host.allowed);
  } catch (err) {
    const reason = `The job's workspace could not be made: ${redacted(err)}`;
    return record(unstartedResult({ task: job.task, workspace: folder.workspace, model, status: 'failed', reason, startedAt }));
  }
  try {
    const { options, taken } = jobRunOptions(job, folder, host.flags);
    if (taken.length) host.stderr.write(`keel fleet: ${context.jobId} runs within this worker's flags: not ${taken.join('; ')}\n`);
    const { result } = await executeTask(options, {
      env: host.env,
      stderr: host.stderr,
      interactive: false,
      approver: rejectAll,
      ...(context.onEvent ? { onEvent: context.onEvent } : {}),
      onInterrupt: (stop) => onAbort(context.signal, stop),
      wrapProvider: (p) => gatedProvider(p, host.gate),
      budget: host.budget,
      checkpointsDir: folder.checkpoints,
      memory: false,
      // Nor a code index cache: each job's copy is a new folder, so each would leave a file.
      indexCache: false,
      // Hooks stay off in a fleet: nobody is there to allow a job's workspace hooks.
      hooks: false,
      onSandboxUnavailable: host.onSandboxUnavailable,
    });
    return record(result);
  } catch (err) {
    const reason = `The job could not run: ${redacted(err)}`;
    return record(unstartedResult({ task: job.task, workspace: folder.workspace, model, status: 'failed', reason, startedAt }));
  } finally {
    if (!host.flags.keepWorkspaces) await removeFolder(folder).catch(() => undefined);
  }
}

/** What the job asked to run under, as a run policy (its sandbox: the worker's unless it asks for more). */
function jobPolicy(job: FleetJob, flags: WorkerFlags): RunPolicy {
  return {
    autoApprove: job.approve === 'all' ? [...ALL_RISKS] : job.approve,
    approveUnclassified: job.approve === 'all',
    // A job has no memory store (its copy is thrown away), so remember and forget are never offered.
    autoApproveMemory: false,
    commandsAllow: job.allowCommands,
    commandsDeny: job.denyCommands,
    sandbox: job.sandbox ?? flags.sandbox,
  };
}

/** The job's run options within the worker's ceiling, and what of the job's asking the ceiling took away. */
function jobRunOptions(job: FleetJob, folder: ReturnType<typeof jobFolder>, flags: WorkerFlags): { options: RunOptions; taken: string[] } {
  const asked = jobPolicy(job, flags);
  const policy = narrowPolicy(asked, flags.ceiling);
  return { options: withPolicy(baseRunOptions(job, folder, flags), policy), taken: narrowedBy(asked, policy) };
}

function baseRunOptions(job: FleetJob, folder: ReturnType<typeof jobFolder>, flags: WorkerFlags): RunOptions {
  return {
    task: job.task,
    workspace: folder.workspace,
    provider: flags.provider,
    model: job.model ?? flags.model,
    ...(job.mode ? { mode: job.mode } : {}),
    baseUrl: flags.baseUrl,
    // The approvals, command rules and sandbox mode are the narrowed policy's (withPolicy).
    approve: [],
    approveUnclassified: false,
    approveMemory: false,
    allowCommands: [],
    denyCommands: [],
    log: folder.log,
    maxTurns: job.maxTurns ?? DEFAULT_MAX_TURNS,
    subagents: { ...SUBAGENT_DEFAULTS },
    contextWindow: flags.contextWindow,
    // A fleet runs each job at its model's default reasoning and the model table's token field.
    reasoning: 'default',
    maxTokensParameter: 'auto',
    wireApi: 'auto',
    // A fleet worker on a cloud reads its region and project from the worker's environment.
    region: undefined,
    project: undefined,
    mcpConfigs: [],
    mcpWorkspace: false,
    // The result's files and patch come from the job's checkpoints, kept in the job's own folder.
    checkpoints: true,
    // A job's edits get the problems its workspace's checkers report, as keel run's do.
    problems: true,
    a2aConfigs: [],
    a2aWorkspace: false,
    output: 'json',
    budget: job.budget,
    passEnv: flags.passEnv,
    sandbox: flags.sandbox,
  };
}

/**
 * An error's message as results keep and print it: a git URL of a job may carry a token
 * (https://bot:TOKEN@host/…), and git and Keel's own messages quote the URL.
 */
export function redacted(err: unknown): string {
  return redactSecrets((err as Error).message ?? String(err), [], secretDetector());
}

function onAbort(signal: AbortSignal, stop: () => void): () => void {
  if (signal.aborted) {
    stop();
    return () => {};
  }
  signal.addEventListener('abort', stop, { once: true });
  return () => signal.removeEventListener('abort', stop);
}
