// `keel run`: builds its runtime through src/compose on the Node workspace, streams the run to
// the terminal, and turns the outcome into an exit status. The run gets the workspace's memory
// store under the user's config folder, the one `keel memory` reads, and records checkpoints
// under the user's cache folder (src/cli/checkpoints.ts). It loads the user's skills (the config
// folder's `keel/skills`) and the workspace's `.keel/skills`.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  composeRuntime,
  createModelProvider,
  describeSkillProblem,
  secretDetector,
  sweepStaleTemps,
  type ComposeInput,
  type SkillProblem,
} from '../compose/index.js';
import { userSkillFolder, userSkillsDir } from '../node/skill-folder.js';
import {
  findIntent,
  type Checkpoints,
  type LogStore,
  type MemoryAccess,
  type ModelProvider,
  type RunPolicy,
  type Runtime,
  type RuntimeEvent,
  type RuntimeOutput,
  type Workspace,
} from '../kernel/index.js';
import { capabilitiesFor, ScriptedProvider } from '../providers/index.js';
import { COMMAND_SANDBOX_RULES } from '../tools/index.js';
import type { NodeSandboxOptions } from '../node/sandbox/node-sandbox.js';
import { headlessWorkspace } from './headless-workspace.js';
import { withheldCredentials } from '../node/command-shell.js';
import type { NodeCheckpointStore } from '../node/checkpoint-store.js';
import { JsonlLogStore } from '../node/jsonl-store.js';
import { cliMemoryFiles, JsonlMemoryStore } from '../node/memory-store.js';
import type { RunOptions } from './args.js';
import { UsageError } from './args.js';
import { cliCheckpoints } from './checkpoints.js';
import { cliMcpHub, requireMcpConfigs } from './mcp.js';
import type { McpHub } from '../mcp/index.js';
import { rejectAll, terminalApprover, type Approver } from './approvals.js';
import { demoScript } from './demo-script.js';
import { contextLine, streamPrinter } from './render.js';
import { renderTaskEvent } from './render-frames.js';

export const EXIT = { completed: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Registers a handler for Ctrl+C; returns its remover. */
  onInterrupt(handler: () => void): () => void;
  /** Where the user's config folder is ($XDG_CONFIG_HOME, $HOME): the memory store lives there. */
  env: NodeJS.ProcessEnv;
}

export async function runTask(options: RunOptions, io: CliIo): Promise<number> {
  const root = workspaceRoot(options);
  requireMcpConfigs(options);
  const logPath = options.log ? path.resolve(options.log) : undefined;
  // A log holds one task: a second run appended to it would restart its sequence numbers.
  if (logPath && fs.existsSync(logPath) && fs.statSync(logPath).size > 0)
    throw new UsageError(`--log ${options.log} already exists; give a new file (a log holds one task).`);
  const store = logPath ? JsonlLogStore.open(logPath, { policy: runPolicy(options) }) : undefined;
  return driveTask(options, io, { root, store, events: [], start: (runtime) => runtime.send(options.task) });
}

/** The workspace folder a command works in; a usage error when it is not a folder. */
export function workspaceRoot(options: Pick<RunOptions, 'workspace'>): string {
  const root = path.resolve(options.workspace);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`--workspace ${options.workspace} is not a folder.`);
  return root;
}

interface TaskStart {
  root: string;
  store: JsonlLogStore | undefined;
  /** The task so far (a log being resumed); empty for a new task. */
  events: readonly RuntimeEvent[];
  start(runtime: Runtime): AsyncIterable<RuntimeOutput>;
}

/**
 * Runs a task to its end at the terminal — a new one (keel run) or an interrupted one picked up
 * from its log (keel resume) — and turns the outcome into an exit status.
 */
export async function driveTask(options: RunOptions, io: CliIo, task: TaskStart): Promise<number> {
  const { root, store } = task;
  const credentials = { detector: secretDetector(), passEnv: () => options.passEnv };
  const workspace = await headlessWorkspace(root, { web: true, credentials, sandbox: cliSandbox(options, io.stderr) });
  tellWithheld(io, options.passEnv);
  const interactive = !!io.stdin.isTTY;
  const provider = makeProvider(options);
  const taskId = `cli-${randomUUID()}`;
  const memory = cliMemory(root, io, taskId);
  const checkpoints = options.checkpoints ? cliCheckpoints(root, io.env, taskId) : undefined;
  for (const rel of await sweepStaleTemps(root, checkpoints ? [checkpoints.dir] : []))
    io.stderr.write(`keel: removed ${rel}, a temporary file a crashed write left\n`);
  const skills = {
    user: userSkillFolder(userSkillsDir(io.env)),
    report: (problems: readonly SkillProblem[]) => {
      for (const p of problems) io.stderr.write(`keel: skipped a skill: ${describeSkillProblem(p)}\n`);
    },
  };
  const mcp = await cliMcpHub(options, root, io.env, io.stderr);
  const runtime = cliRuntime(options, {
    provider,
    workspace,
    interactive,
    store,
    events: task.events,
    ...(memory ? { memory } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    skills,
    ...(mcp ? { mcp } : {}),
  });
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    runtime.cancel();
  };
  const approver: Approver = interactive ? terminalApprover(io.stdin, io.stdout, interrupt) : rejectAll;
  const printer = streamPrinter(io.stdout);
  const removeInterrupt = io.onInterrupt(interrupt);
  try {
    for await (const out of task.start(runtime)) {
      if (out.kind !== 'event') continue;
      const e = out.event;
      renderTaskEvent(printer, e, runtime.getState());
      const asking = e.type === 'approval_requested' ? findIntent(runtime.getState(), e.intentId)?.intent : undefined;
      if (e.type === 'approval_requested' && asking) await approver(asking, e.reason, runtime);
    }
  } finally {
    removeInterrupt();
    await mcp?.dispose();
    await store?.close();
    if (checkpoints) await collectCheckpoints(checkpoints, io.stderr);
  }
  printer.line(contextLine(runtime.preview(), runtime.getState(), provider.capabilities.contextWindow));
  const status = runtime.getState().status;
  if (interrupted) return EXIT.interrupted;
  return status === 'completed' ? EXIT.completed : EXIT.failed;
}

/** The CLI's runtime: the shared composition, with the terminal's settings and a trusted folder. */
export function cliRuntime(
  o: RunOptions,
  ports: {
    provider: ModelProvider;
    workspace: Workspace;
    interactive: boolean;
    store?: LogStore | undefined;
    /** The task so far, when it continues from a log. */
    events?: readonly RuntimeEvent[];
    memory?: MemoryAccess;
    checkpoints?: Checkpoints;
    skills?: ComposeInput['skills'];
    mcp?: McpHub;
  },
) {
  return composeRuntime({
    provider: ports.provider,
    settings: { maxTurns: o.maxTurns, ...runPolicy(o), subagents: o.subagents, sandbox: o.sandbox },
    workspace: ports.workspace,
    trusted: () => true,
    interactive: ports.interactive,
    ...(ports.store ? { store: ports.store } : {}),
    ...(ports.events?.length ? { events: ports.events } : {}),
    ...(ports.memory ? { memory: ports.memory } : {}),
    ...(ports.checkpoints ? { checkpoints: ports.checkpoints } : {}),
    ...(ports.skills ? { skills: ports.skills } : {}),
    ...(ports.mcp ? { mcp: ports.mcp } : {}),
  });
}

/** The approvals and command rules of a run: what its policy decides with and its log's header records. */
function runPolicy(o: RunOptions): RunPolicy {
  return {
    autoApprove: o.approve,
    approveUnclassified: o.approveUnclassified,
    autoApproveMemory: o.approveMemory,
    commandsAllow: o.allowCommands,
    commandsDeny: o.denyCommands,
  };
}

/** The OS sandbox; where there is none (or it stops working) the run says so once on stderr, unless it is off. */
function cliSandbox(o: Pick<RunOptions, 'sandbox'>, stderr: NodeJS.WritableStream): NodeSandboxOptions {
  const say = (reason: string) => {
    if (o.sandbox !== 'off') stderr.write(`keel: no sandbox for commands: ${reason}. Every command asks before it runs.\n`);
  };
  return { rules: COMMAND_SANDBOX_RULES, onUnavailable: say };
}

/** Names the variables commands will not get (never their values), and how to pass one. */
function tellWithheld(io: CliIo, pass: readonly string[]): void {
  const names = withheldCredentials(io.env, { held: [], credentials: secretDetector(), pass });
  if (names.length === 0) return;
  io.stderr.write(`keel: commands will not see ${names.join(', ')} (they look like credentials; --pass-env NAME passes one)\n`);
}

/**
 * The memory a run keeps: the store `keel memory` reads, with this run's own task id. A store
 * that cannot be opened (an unreadable or full config folder) costs the run its memory tools,
 * never the run: it says so and goes on.
 */
export function cliMemory(root: string, io: Pick<CliIo, 'env' | 'stderr'>, taskId: string): MemoryAccess | undefined {
  try {
    const store = JsonlMemoryStore.open(cliMemoryFiles(root, io.env));
    for (const p of store.problems) io.stderr.write(`keel: set aside a damaged memory line (${p.reason})\n`);
    return { store, taskId };
  } catch (err) {
    io.stderr.write(`keel: ${(err as Error).message} This run goes on without memory (no remember, recall or forget).\n`);
    return undefined;
  }
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
    // A window given for the demo bounds its output reserve as it would a real model's.
    const given = o.contextWindow === undefined ? undefined : capabilitiesFor('demo', { contextWindow: o.contextWindow });
    const window = given ? { contextWindow: given.contextWindow, maxOutputTokens: given.maxOutputTokens } : {};
    return new ScriptedProvider(demoScript, { model: 'demo', capabilities: window });
  }
  return createModelProvider({ provider: o.provider, model: o.model, baseUrl: o.baseUrl, contextWindow: o.contextWindow });
}
