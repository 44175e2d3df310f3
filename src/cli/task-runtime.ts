// The parts of a headless task's runtime that every way of running one shares (keel run, keel
// resume, a fleet job, an A2A task): the composed runtime with the run's policy, the memory store,
// the model provider, and the one-line notices a run prints on stderr.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime, createModelProvider, secretDetector, type ComposeInput } from '../compose/index.js';
import type { Checkpoints, LogStore, MemoryAccess, ModelProvider, RunPolicy, RuntimeEvent, Workspace } from '../kernel/index.js';
import { capabilitiesFor, DEMO_PROVIDER, ScriptedProvider } from '../providers/index.js';
import { withheldCredentials } from '../node/command-shell.js';
import type { NodeCheckpointStore } from '../node/checkpoint-store.js';
import { cliMemoryFiles, JsonlMemoryStore } from '../node/memory-store.js';
import type { McpHub } from '../mcp/index.js';
import type { A2aAgentConfig } from '../a2a/index.js';
import { UsageError, type RunOptions } from './args.js';
import { demoScript } from './demo-script.js';

/** The workspace folder a command works in; a usage error when it is not a folder. */
export function workspaceRoot(options: Pick<RunOptions, 'workspace'>): string {
  const root = path.resolve(options.workspace);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`--workspace ${options.workspace} is not a folder.`);
  return root;
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
    agents?: ComposeInput['agents'];
    commands?: ComposeInput['commands'];
    hooks?: ComposeInput['hooks'];
    mcp?: McpHub;
    a2a?: readonly A2aAgentConfig[];
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
    ...(ports.agents ? { agents: ports.agents } : {}),
    ...(ports.commands ? { commands: ports.commands } : {}),
    ...(ports.hooks ? { hooks: ports.hooks } : {}),
    ...(ports.mcp ? { mcp: ports.mcp } : {}),
    ...(ports.a2a?.length ? { a2a: ports.a2a } : {}),
  });
}

/** The approvals and command rules of a run: what its policy decides with and its log's header records. */
export function runPolicy(o: RunOptions): RunPolicy {
  return {
    autoApprove: o.approve,
    approveUnclassified: o.approveUnclassified,
    autoApproveMemory: o.approveMemory,
    commandsAllow: o.allowCommands,
    commandsDeny: o.denyCommands,
    sandbox: o.sandbox,
  };
}

/** The options of a resumed run with the approvals, command rules and sandbox its log's header recorded. */
export function withPolicy(o: RunOptions, p: RunPolicy): RunOptions {
  return {
    ...o,
    approve: p.autoApprove,
    approveUnclassified: p.approveUnclassified,
    approveMemory: p.autoApproveMemory ?? false,
    allowCommands: p.commandsAllow,
    denyCommands: p.commandsDeny,
    ...(p.sandbox ? { sandbox: p.sandbox } : {}),
  };
}

/**
 * The memory a run keeps: the store `keel memory` reads, with this run's own task id. A store
 * that cannot be opened (an unreadable or full config folder) costs the run its memory tools,
 * never the run: it says so and goes on.
 */
export function cliMemory(
  root: string,
  io: { env: NodeJS.ProcessEnv; stderr: NodeJS.WritableStream },
  taskId: string,
): MemoryAccess | undefined {
  try {
    const store = JsonlMemoryStore.open(cliMemoryFiles(root, io.env));
    for (const p of store.problems) io.stderr.write(`keel: set aside a damaged memory line (${p.reason})\n`);
    return { store, taskId };
  } catch (err) {
    io.stderr.write(`keel: ${(err as Error).message} This run goes on without memory (no remember, recall or forget).\n`);
    return undefined;
  }
}

/** A task id of the CLI's kind (memories and checkpoints name the task that made them). */
export function cliTaskId(): string {
  return `cli-${randomUUID()}`;
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
export async function collectCheckpoints(store: NodeCheckpointStore, stderr: NodeJS.WritableStream): Promise<void> {
  try {
    await store.collect();
  } catch (err) {
    stderr.write(`keel: could not trim old checkpoints (${(err as Error).message})\n`);
  }
}

export function makeProvider(o: RunOptions): ModelProvider {
  if (o.provider === DEMO_PROVIDER) {
    // A window given for the demo bounds its output reserve as it would a real model's.
    const given = o.contextWindow === undefined ? undefined : capabilitiesFor('demo', { contextWindow: o.contextWindow });
    const window = given ? { contextWindow: given.contextWindow, maxOutputTokens: given.maxOutputTokens } : {};
    return new ScriptedProvider(demoScript, { model: 'demo', capabilities: window });
  }
  return createModelProvider({
    provider: o.provider,
    model: o.model,
    baseUrl: o.baseUrl,
    contextWindow: o.contextWindow,
    reasoning: o.reasoning,
    maxTokensParameter: o.maxTokensParameter,
    wireApi: o.wireApi,
    region: o.region,
    project: o.project,
  });
}
