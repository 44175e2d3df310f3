// One headless task, start to end: the runtime built through src/compose on the Node workspace
// (memory under the user's config folder, checkpoints under a cache folder, the user's and the
// workspace's skills, MCP servers, A2A agents, the OS sandbox for commands), run to its end, and
// its result record. `keel run`, a fleet job and an A2A task all run through here, so they run the
// same composed runtime: the same policy, sandbox mode and withheld credentials.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  allBudgets,
  composeRuntime,
  createModelProvider,
  describeSkillProblem,
  EXIT_CODES,
  lastAnswer,
  secretDetector,
  lastTest,
  refusals,
  RUN_RESULT_VERSION,
  runOutcome,
  spendOf,
  taskBudget,
  taskChanges,
  taskTurns,
  type Budget,
  type ComposeInput,
  type RunResult,
  type SkillProblem,
} from '../compose/index.js';
import { userSkillFolder, userSkillsDir } from '../node/skill-folder.js';
import {
  findIntent,
  type Checkpoints,
  type ConversationState,
  type LogStore,
  type MemoryAccess,
  type ModelProvider,
  type Runtime,
  type RuntimeEvent,
  type Workspace,
} from '../kernel/index.js';
import { priceOf, ScriptedProvider } from '../providers/index.js';
import { COMMAND_SANDBOX_RULES } from '../tools/index.js';
import { withheldCredentials } from '../node/command-shell.js';
import { headlessWorkspace } from './headless-workspace.js';
import type { NodeCheckpointStore } from '../node/checkpoint-store.js';
import { JsonlLogStore } from '../node/jsonl-store.js';
import { cliMemoryFiles, JsonlMemoryStore } from '../node/memory-store.js';
import type { McpHub } from '../mcp/index.js';
import { workspaceCheckpoints } from '../compose/checkpoints.js';
import type { RunOptions } from './args.js';
import { UsageError } from './args.js';
import { cliCheckpoints } from './checkpoints.js';
import { cliMcpHub } from './mcp.js';
import { cliA2aAgents } from './a2a.js';
import type { A2aAgentConfig } from '../a2a/index.js';
import type { Approver } from './approvals.js';
import { demoScript } from './demo-script.js';

export interface TaskPorts {
  env: NodeJS.ProcessEnv;
  /** Warnings: skipped skills, MCP problems, damaged memory lines. */
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
}

export interface TaskOutcome {
  result: RunResult;
  runtime: Runtime;
  provider: ModelProvider;
}

export async function executeTask(options: RunOptions, ports: TaskPorts): Promise<TaskOutcome> {
  const startedAt = new Date();
  const root = path.resolve(options.workspace);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`--workspace ${options.workspace} is not a folder.`);
  const logPath = options.log ? path.resolve(options.log) : undefined;
  // A log holds one task: a second run appended to it would restart its sequence numbers.
  if (logPath && fs.existsSync(logPath) && fs.statSync(logPath).size > 0)
    throw new UsageError(`--log ${options.log} already exists; give a new file (a log holds one task).`);
  const base = makeProvider(options);
  if (options.budget.usd !== undefined && !priceOf(base.model) && options.provider !== 'scripted')
    throw new UsageError(`--max-cost needs a model whose price Keel knows ("${base.model}" has none); use --max-tokens.`);
  const provider = ports.wrapProvider ? ports.wrapProvider(base) : base;
  // Commands get no credential from this environment but those the user passes (--pass-env).
  const credentials = { detector: secretDetector(), passEnv: () => options.passEnv };
  const sandbox = { rules: COMMAND_SANDBOX_RULES, ...(ports.onSandboxUnavailable ? { onUnavailable: ports.onSandboxUnavailable } : {}) };
  const workspace = await headlessWorkspace(root, { web: true, credentials, sandbox });
  const store = logPath ? JsonlLogStore.open(logPath) : undefined;
  const memory = ports.memory === false ? undefined : cliMemory(root, ports.env);
  for (const p of memory?.store.problems ?? []) ports.stderr.write(`keel: set aside a damaged memory line (${p.reason})\n`);
  const taskId = memory?.taskId ?? `cli-${randomUUID()}`;
  const checkpoints = ports.checkpointsDir
    ? workspaceCheckpoints({ storageDir: ports.checkpointsDir, root, taskId })
    : cliCheckpoints(root, ports.env, taskId);
  const skills = {
    user: userSkillFolder(userSkillsDir(ports.env)),
    report: (problems: readonly SkillProblem[]) => {
      for (const p of problems) ports.stderr.write(`keel: skipped a skill: ${describeSkillProblem(p)}\n`);
    },
  };
  const mcp = await cliMcpHub(options, root, ports.env, ports.stderr);
  const a2a = cliA2aAgents(options, root, ports.env, ports.stderr);
  const runtime = cliRuntime(options, {
    a2a,
    provider,
    workspace,
    interactive: ports.interactive,
    store,
    ...(memory ? { memory } : {}),
    checkpoints,
    skills,
    ...(mcp ? { mcp } : {}),
  });
  const budget = allBudgets([taskBudget(options.budget), ...(ports.budget ? [ports.budget] : [])]);
  const ending = { interrupted: false, overBudget: undefined as string | undefined };
  const removeInterrupt = ports.onInterrupt(() => {
    ending.interrupted = true;
    runtime.cancel();
  });
  try {
    for await (const out of runtime.send(options.task)) {
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
  } finally {
    removeInterrupt();
    await mcp?.dispose();
    await store?.close();
    await collectCheckpoints(checkpoints, ports.stderr);
  }
  const result = await taskResult(options, { runtime, provider, workspace, checkpoints, logPath, startedAt, ending });
  return { result, runtime, provider };
}

interface ResultInput {
  runtime: Runtime;
  provider: ModelProvider;
  workspace: Workspace;
  checkpoints: Checkpoints;
  logPath: string | undefined;
  startedAt: Date;
  ending: { interrupted: boolean; overBudget: string | undefined };
}

async function taskResult(options: RunOptions, r: ResultInput): Promise<RunResult> {
  const state = r.runtime.getState();
  const { status, reason } = runOutcome(state, r.runtime.getEvents(), r.ending);
  const changes = await taskChanges(state.checkpoints, r.checkpoints, r.workspace);
  const u = state.usage;
  return {
    version: RUN_RESULT_VERSION,
    status,
    reason,
    exitCode: EXIT_CODES[status],
    task: options.task,
    answer: lastAnswer(state),
    workspace: r.workspace.root,
    provider: r.provider.name,
    model: r.provider.model,
    filesChanged: changes.files,
    patch: changes.patch,
    lastTest: lastTest(state),
    refusals: refusals(state, r.runtime.getEvents()),
    turns: taskTurns(state),
    tokens: { input: u.inputTokens, output: u.outputTokens, cacheRead: u.cacheReadTokens, cacheWrite: u.cacheWriteTokens },
    costUsd: u.costUsd ?? null,
    log: r.logPath ?? null,
    startedAt: r.startedAt.toISOString(),
    durationMs: Date.now() - r.startedAt.getTime(),
  };
}

/** The CLI's runtime: the shared composition, with the terminal's settings and a trusted folder. */
export function cliRuntime(
  o: RunOptions,
  ports: {
    provider: ModelProvider;
    workspace: Workspace;
    interactive: boolean;
    store?: LogStore | undefined;
    memory?: MemoryAccess;
    checkpoints?: Checkpoints;
    skills?: ComposeInput['skills'];
    mcp?: McpHub;
    a2a?: readonly A2aAgentConfig[];
  },
) {
  return composeRuntime({
    provider: ports.provider,
    settings: {
      maxTurns: o.maxTurns,
      autoApprove: o.approve,
      approveUnclassified: o.approveUnclassified,
      commandsAllow: o.allowCommands,
      commandsDeny: o.denyCommands,
      subagents: o.subagents,
      sandbox: o.sandbox,
    },
    workspace: ports.workspace,
    trusted: () => true,
    interactive: ports.interactive,
    ...(ports.store ? { store: ports.store } : {}),
    ...(ports.memory ? { memory: ports.memory } : {}),
    ...(ports.checkpoints ? { checkpoints: ports.checkpoints } : {}),
    ...(ports.skills ? { skills: ports.skills } : {}),
    ...(ports.mcp ? { mcp: ports.mcp } : {}),
    ...(ports.a2a?.length ? { a2a: ports.a2a } : {}),
  });
}

/** The memory a run keeps: the store `keel memory` reads, with this run's own task id. */
export function cliMemory(root: string, env: NodeJS.ProcessEnv): MemoryAccess & { store: JsonlMemoryStore } {
  return { store: JsonlMemoryStore.open(cliMemoryFiles(root, env)), taskId: `cli-${randomUUID()}` };
}

/** Names the variables commands will not get (never their values), and how to pass one. */
export function tellWithheld(env: NodeJS.ProcessEnv, pass: readonly string[], stderr: NodeJS.WritableStream): void {
  const names = withheldCredentials(env, { held: [], credentials: secretDetector(), pass });
  if (names.length === 0) return;
  stderr.write(`keel: commands will not see ${names.join(', ')} (they look like credentials; --pass-env NAME passes one)\n`);
}

/**
 * Says on stderr, once per process, that there is no OS sandbox (unless it is off): commands that
 * would run unasked then ask, which headless means refused. A fleet worker makes one for all its jobs.
 */
export function sandboxNotice(mode: RunOptions['sandbox'], stderr: NodeJS.WritableStream, asks: string): (reason: string) => void {
  let said = false;
  return (reason) => {
    if (said || mode === 'off') return;
    said = true;
    stderr.write(`keel: no sandbox for commands: ${reason}. ${asks}\n`);
  };
}

/** Keeps the workspace's checkpoints under their cap; a failure there never fails the run. */
async function collectCheckpoints(store: NodeCheckpointStore, stderr: NodeJS.WritableStream): Promise<void> {
  try {
    await store.collect();
  } catch (err) {
    stderr.write(`keel: could not trim old checkpoints (${(err as Error).message})\n`);
  }
}

function makeProvider(o: RunOptions): ModelProvider {
  if (o.provider === 'scripted') {
    const window = o.contextWindow === undefined ? {} : { contextWindow: o.contextWindow };
    return new ScriptedProvider(demoScript, { model: 'demo', capabilities: window });
  }
  return createModelProvider({ provider: o.provider, model: o.model, baseUrl: o.baseUrl, contextWindow: o.contextWindow });
}
