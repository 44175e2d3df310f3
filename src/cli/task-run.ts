// One headless task, start to end: the runtime built through src/compose on the Node workspace
// (memory under the user's config folder, checkpoints under a cache folder, the user's and the
// workspace's skills, MCP servers, A2A agents, the OS sandbox for commands), run to its end, and
// its result record. `keel run`, `keel resume`, a fleet job and an A2A task all run through here,
// so they run the same composed runtime — the same policy, sandbox mode and withheld credentials —
// with the same durability: one writer per log (src/node/log-lock.ts), the run's policy in a new log's header, the sweep of temp files a
// crashed write left, a log that cannot be written ending the run (storage_failed), checkpoints
// unless --no-checkpoints, and memory that cannot be opened costing only the memory tools.
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  allBudgets,
  describeSkillProblem,
  secretDetector,
  spendOf,
  sweepStaleTemps,
  taskBudget,
  type Budget,
  type RunResult,
  type SkillProblem,
} from '../compose/index.js';
import { workspaceCheckpoints } from '../compose/checkpoints.js';
import { userAgentsDir, userCommandsDir, userSkillFolder, userSkillsDir } from '../node/skill-folder.js';
import {
  findIntent,
  type AgentProfile,
  type ConversationState,
  type ModelProvider,
  type Runtime,
  type RuntimeEvent,
  type RuntimeOutput,
  type UserInput,
} from '../kernel/index.js';
import { noPlanWaiting, planReplyInput, type PlanReply } from '../compose/plan-approval.js';
import { runtimeAgents, runtimeCommands } from '../compose/runtime.js';
import { endBackground } from './background-end.js';
import { commandCall } from '../compose/commands/command-file.js';
import { expandSlash } from '../compose/commands/slash.js';
import { pickAgent } from '../compose/agents/pick-agent.js';
import { DEMO_PROVIDER, priceOf } from '../providers/index.js';
import { keelSandboxCacheDir } from '../node/sandbox/toolchain-view.js';
import { COMMAND_SANDBOX_RULES } from '../tools/index.js';
import { headlessWorkspace } from '../compose/headless-workspace.js';
import type { CodeIndex, IndexProgress } from '../codeintel/code-index.js';
import { TreeSitterIntel } from '../codeintel/tree-sitter-intel.js';
import { codeIndexCacheFile, codeIndexStore } from '../node/code-index-store.js';
import { JsonlLogStore } from '../node/jsonl-store.js';
import { existingLogKey } from '../node/log-seal.js';
import { lockLog } from '../node/log-lock.js';
import { sealingKey } from './task-log.js';
import type { RunOptions } from './args.js';
import { InputError, UsageError } from './args.js';
import { cliCheckpoints } from './checkpoints.js';
import { cliMcpHub, requireConfigFiles } from './mcp.js';
import { cliA2aAgents } from './a2a.js';
import type { Approver } from './approvals.js';
import { taskResult } from './task-result.js';
import { cliHooks, hookAllowance } from './hooks.js';
import { cliMemory, cliRuntime, cliTaskId, collectCheckpoints, makeProvider, runPolicy, workspaceRoot } from './task-runtime.js';

export { cliMemory, cliRuntime, sandboxNotice, tellWithheld } from './task-runtime.js';

export interface TaskPorts {
  env: NodeJS.ProcessEnv;
  /** Warnings: skipped skills, MCP problems, damaged memory lines, removed temp files. */
  stderr: NodeJS.WritableStream;
  interactive: boolean;
  /** Who answers an approval the policy asks for. */
  approver: Approver;
  /** Every event as it is logged, with the task's state after it. */
  onEvent?(event: RuntimeEvent, state: ConversationState): void;
  /** Registers the stop of this task (Ctrl+C, a job's cancel); returns its remover. */
  onInterrupt(stop: () => void): () => void;
  /** Wraps the model provider (a fleet's shared rate limit). */
  wrapProvider?(provider: ModelProvider): ModelProvider;
  /** Spending shared beyond this task (a fleet's budget); the task's own caps come from the options. */
  budget?: Budget;
  /** Where checkpoints are kept instead of the user's cache folder (a job's own folder). */
  checkpointsDir?: string;
  /** False: no memory store (a fleet job's throwaway copy would leave one memory file per job). */
  memory?: boolean;
  /** Told when the OS sandbox is found unavailable or stops working (sandboxNotice). */
  onSandboxUnavailable?(reason: string): void;
  /** Asks the person whether to carry out the plan a Plan run ended with (a terminal only). */
  answerPlan?(): Promise<PlanReply>;
  /** False: no hooks at all (a fleet job); otherwise the user's run, the workspace's with --allow-hooks. */
  hooks?: boolean;
  /** False: the code index is not kept between runs (a fleet job's throwaway copy). */
  indexCache?: boolean;
  /** Told while the code index parses files its cache did not hold (the "indexing…" line). */
  onIndexProgress?(progress: IndexProgress): void;
}

/**
 * Where the task starts: a new one (options.task, logged to options.log when given), or one an
 * interrupted run left in its log, continued and appended to (keel resume).
 */
export type TaskStart =
  | { type: 'new' }
  /** `send`: a message to continue the idle task with (keel resume --approve-plan) instead of resuming a run. */
  | { type: 'resume'; log: string; events: readonly RuntimeEvent[]; send?: Exclude<UserInput, string> };

export interface TaskOutcome {
  result: RunResult;
  runtime: Runtime;
  provider: ModelProvider;
}

export async function executeTask(options: RunOptions, ports: TaskPorts, start: TaskStart = { type: 'new' }): Promise<TaskOutcome> {
  const startedAt = new Date();
  // Everything a usage error can come from is checked before anything is written.
  const root = workspaceRoot(options);
  requireConfigFiles(options);
  const logPath = start.type === 'resume' ? start.log : newLogPath(options);
  // One writer per log: a second one is refused before it reads or writes a byte of it.
  const lock = logPath ? lockLog(logPath, start.type === 'resume' ? logPath : (options.log ?? logPath)) : undefined;
  if (lock?.type === 'busy') throw new InputError(lock.message);
  try {
    return await executeWithLog(options, ports, start, { root, logPath, startedAt });
  } finally {
    lock?.release();
  }
}

async function executeWithLog(
  options: RunOptions,
  ports: TaskPorts,
  start: TaskStart,
  { root, logPath, startedAt }: { root: string; logPath: string | undefined; startedAt: Date },
): Promise<TaskOutcome> {
  const provider = taskProvider(options, ports);
  // Commands get no credential from this environment but those the user passes (--pass-env).
  const credentials = { detector: secretDetector(), passEnv: () => options.passEnv };
  const sandbox = {
    rules: COMMAND_SANDBOX_RULES,
    cacheDir: keelSandboxCacheDir(ports.env, os.homedir()),
    ...(options.readOnlyFolders?.length ? { readOnly: options.readOnlyFolders } : {}),
    ...(ports.onSandboxUnavailable ? { onUnavailable: ports.onSandboxUnavailable } : {}),
  };
  const codeIndex = {
    ...(ports.indexCache === false ? {} : { cache: codeIndexStore(codeIndexCacheFile(root, ports.env)) }),
    ...(ports.onIndexProgress ? { onProgress: ports.onIndexProgress } : {}),
  };
  const workspace = await headlessWorkspace(root, {
    web: { allowHosts: options.allowHosts ?? [] },
    credentials,
    sandbox,
    codeIndex,
    problems: options.problems,
  });
  const index = startIndexing(workspace);
  // A new log's header records the policy the run decides with (replay and resume read it); the
  // log is sealed with the user's key, and a resumed one's seal goes on.
  const store = logPath ? openLog(logPath, start, options, ports) : undefined;
  const taskId = cliTaskId();
  const memory = ports.memory === false ? undefined : cliMemory(root, ports, taskId);
  const checkpoints = !options.checkpoints
    ? undefined
    : ports.checkpointsDir
      ? workspaceCheckpoints({ storageDir: ports.checkpointsDir, root, taskId })
      : cliCheckpoints(root, ports.env, taskId);
  for (const rel of await sweepStaleTemps(root, checkpoints ? [checkpoints.dir] : []))
    ports.stderr.write(`keel: removed ${rel}, a temporary file a crashed write left\n`);
  const skills = {
    user: userSkillFolder(userSkillsDir(ports.env)),
    report: (problems: readonly SkillProblem[]) => {
      for (const p of problems) ports.stderr.write(`keel: skipped a skill: ${describeSkillProblem(p)}\n`);
    },
  };
  const agents = {
    user: userSkillFolder(userAgentsDir(ports.env)),
    report: (problems: readonly SkillProblem[]) => {
      for (const p of problems) ports.stderr.write(`keel: skipped a custom agent: ${describeSkillProblem(p)}\n`);
    },
  };
  const commands = {
    user: userSkillFolder(userCommandsDir(ports.env)),
    report: (problems: readonly SkillProblem[]) => {
      for (const p of problems) ports.stderr.write(`keel: skipped a command: ${describeSkillProblem(p)}\n`);
    },
  };
  const mcp = await cliMcpHub(options, root, ports.env, ports.stderr);
  const a2a = cliA2aAgents(options, root, ports.env, ports.stderr);
  const events = start.type === 'resume' ? start.events : [];
  const runtime = cliRuntime(options, {
    a2a,
    provider,
    workspace,
    interactive: ports.interactive,
    store,
    events,
    ...(memory ? { memory } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    skills,
    agents,
    commands,
    ...(ports.hooks === false ? {} : { hooks: cliHooks(hookAllowance(options), ports.env, ports.stderr, taskId) }),
    ...(mcp ? { mcp } : {}),
  });
  const budget = await spendingCaps(options, ports, events);
  const ending = { interrupted: false, overBudget: undefined as string | undefined };
  const removeInterrupt = ports.onInterrupt(() => {
    ending.interrupted = true;
    runtime.cancel();
  });
  // A task refused before it is sent (an unknown /command or --agent) leaves no log behind: the
  // user runs it again with the same --log.
  let refused = false;
  const refusedInput = (err: unknown): never => {
    refused = true;
    throw err;
  };
  try {
    const input = start.type === 'resume' ? start.send : await taskInput(runtime, options).catch(refusedInput);
    const drive = async (run: AsyncIterable<RuntimeOutput>) => {
      for await (const out of run) {
        if (out.kind !== 'event') continue;
        const e = out.event;
        ports.onEvent?.(e, runtime.getState());
        if (e.type === 'usage' && !ending.overBudget) {
          ending.overBudget = await budget.charge(spendOf(e.usage));
          if (ending.overBudget) runtime.cancel();
        }
        const asking = e.type === 'approval_requested' ? findIntent(runtime.getState(), e.intentId)?.intent : undefined;
        if (e.type === 'approval_requested' && asking) await ports.approver(asking, e.reason, runtime);
      }
    };
    await drive(input === undefined ? runtime.resume() : runtime.send(input));
    // A Plan run that ended with a list: the person approves it (Agent mode goes on), changes it
    // (sent in Plan mode, asked again) or stops — the messages the editor's Approve plan sends.
    while (ports.answerPlan && !ending.interrupted && !ending.overBudget && !noPlanWaiting(runtime.getState())) {
      const next = planReplyInput(await ports.answerPlan());
      if (!next) break;
      await drive(runtime.send(next));
    }
  } finally {
    removeInterrupt();
    await endBackground(runtime, ports.stderr);
    await mcp?.dispose();
    await store?.close();
    if (refused && logPath) fs.rmSync(logPath, { force: true });
    if (checkpoints) await collectCheckpoints(checkpoints, ports.stderr);
    // Stopped by the user: they want the prompt back, not the index finished.
    if (!ending.interrupted) await index?.flush();
  }
  const result = await taskResult({ runtime, provider, workspace, checkpoints, logPath, startedAt, ending });
  return { result, runtime, provider };
}

/**
 * The code index starts its walk now, while the runtime is composed, so the first request finds
 * it further along (from its cache, often done); a failure here is the first question's to report.
 */
function startIndexing(workspace: { codeIntel?: unknown }): CodeIndex | undefined {
  const index = workspace.codeIntel instanceof TreeSitterIntel ? workspace.codeIntel.index : undefined;
  index?.refresh().catch(() => undefined);
  return index;
}

/** The task's log store: a new one with the run's policy in its header, sealed; a resumed one's chain carried on. */
function openLog(file: string, start: TaskStart, options: RunOptions, ports: Pick<TaskPorts, 'env' | 'stderr'>): JsonlLogStore {
  if (start.type === 'resume') return JsonlLogStore.open(file, {}, existingLogKey(ports.env));
  return JsonlLogStore.open(file, { policy: runPolicy(options) }, sealingKey(ports.env, ports.stderr));
}

/** --log for a new task: a log holds one task, so an existing non-empty file is a usage error. */
function newLogPath(options: RunOptions): string | undefined {
  const logPath = options.log ? path.resolve(options.log) : undefined;
  // A second run appended to it would restart its sequence numbers.
  if (logPath && fs.existsSync(logPath) && fs.statSync(logPath).size > 0)
    throw new UsageError(
      `--log ${options.log} already exists and a log holds one task: give a new file each run (a fixed CI path: remove it first), or send that task a follow-up with keel continue ${options.log} "…".`,
    );
  return logPath;
}

function taskProvider(options: RunOptions, ports: Pick<TaskPorts, 'wrapProvider'>): ModelProvider {
  const base = makeProvider(options);
  if (options.budget.usd !== undefined && !priceOf(base.model) && options.provider !== DEMO_PROVIDER)
    throw new UsageError(`--max-cost needs a model whose price Keel knows ("${base.model}" has none); use --max-tokens.`);
  return ports.wrapProvider ? ports.wrapProvider(base) : base;
}

/**
 * The task's own caps (charged with what a resumed task already spent: they cover the whole
 * task) and any shared budget beyond it (a fleet's).
 */
async function spendingCaps(options: RunOptions, ports: Pick<TaskPorts, 'budget'>, before: readonly RuntimeEvent[]): Promise<Budget> {
  const own = taskBudget(options.budget);
  for (const e of before) if (e.type === 'usage') await own.charge(spendOf(e.usage));
  return allBudgets([own, ...(ports.budget ? [ports.budget] : [])]);
}

/** What `keel run` sends: the task (a `/command` expanded), its mode, and the agent it runs as. */
async function taskInput(runtime: Runtime, options: RunOptions) {
  const expansion = expandSlash(options.task, await commandsIfCalled(runtime, options.task), await runtimeAgents(runtime));
  if (expansion.type === 'error') throw new InputError(expansion.message);
  const fromCommand = expansion.type === 'expanded' ? expansion.agent : undefined;
  if (fromCommand && options.agent !== undefined)
    throw new InputError(`--agent cannot be given with a command that picks its own agent or tools (${fromCommand.file}).`);
  const agent = options.agent === undefined ? fromCommand : await pickedAgent(runtime, options.agent);
  const text = expansion.type === 'expanded' ? expansion.text : options.task;
  return { text, ...(options.mode ? { mode: options.mode } : {}), ...(agent ? { agent } : {}) };
}

/** The commands are read only for a task that calls one. */
async function commandsIfCalled(runtime: Runtime, task: string) {
  return commandCall(task) ? runtimeCommands(runtime) : [];
}

/** The custom agent --agent names, as the kernel logs it; an unknown name is the user's error (exit 2). */
async function pickedAgent(runtime: Runtime, name: string): Promise<AgentProfile> {
  const pick = pickAgent(await runtimeAgents(runtime), name);
  if (pick.type === 'unknown') throw new InputError(`--agent: ${pick.message}`);
  return pick.agent;
}
