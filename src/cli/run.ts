// `keel run`: composes kernel + provider + tools + the Node workspace, streams the run to the
// terminal, and turns the outcome into an exit status.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runtime, type ApprovalPolicy, type ModelProvider, type PolicyDecision } from '../kernel/index.js';
import { createAnthropicProvider, createOpenAIProvider, DEFAULT_MODELS, ScriptedProvider } from '../providers/index.js';
import { createPolicy, createToolRegistry, searchByWalking } from '../tools/index.js';
import { createNodeWorkspace } from '../node/node-workspace.js';
import { JsonlLogStore } from '../node/jsonl-store.js';
import type { RunOptions } from './args.js';
import { UsageError } from './args.js';
import { rejectAll, terminalApprover, type Approver } from './approvals.js';
import { demoScript } from './demo-script.js';
import { contextLine, renderEvent, streamPrinter } from './render.js';

export const EXIT = { completed: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Registers a handler for Ctrl+C; returns its remover. */
  onInterrupt(handler: () => void): () => void;
}

export async function runTask(options: RunOptions, io: CliIo): Promise<number> {
  const root = path.resolve(options.workspace);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`--workspace ${options.workspace} is not a folder.`);
  const workspace = await createNodeWorkspace(root, { fallbackSearch: searchByWalking });
  const interactive = !!io.stdin.isTTY;
  const logPath = options.log ? path.resolve(options.log) : undefined;
  // A log holds one task: a second run appended to it would restart its sequence numbers.
  if (logPath && fs.existsSync(logPath) && fs.statSync(logPath).size > 0)
    throw new UsageError(`--log ${options.log} already exists; give a new file (a log holds one task).`);
  const store = logPath ? JsonlLogStore.open(logPath) : undefined;
  const provider = makeProvider(options);
  const runtime = new Runtime({
    provider,
    registry: createToolRegistry(undefined, workspace.shell),
    workspace,
    policy: interactive ? policyFor(options) : headlessPolicy(policyFor(options)),
    store,
    maxTurns: options.maxTurns,
    visibility: { trusted: true, hasDiagnostics: false },
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
    for await (const out of runtime.send(options.task)) {
      if (out.kind !== 'event') continue;
      const e = out.event;
      renderEvent(printer, e, (id) => runtime.getState().intents[id]);
      if (e.type === 'approval_requested') await approver(runtime.getState().intents[e.intentId]!, e.reason, runtime);
    }
  } finally {
    removeInterrupt();
    await store?.close();
  }
  printer.line(contextLine(runtime.preview(), runtime.getState(), provider.capabilities.contextWindow));
  const status = runtime.getState().status;
  if (interrupted) return EXIT.interrupted;
  return status === 'completed' ? EXIT.completed : EXIT.failed;
}

/**
 * With nobody to ask, protected paths and paths outside the workspace are refused outright,
 * even under --approve all; everything else that would ask is rejected by `rejectAll`.
 */
function headlessPolicy(inner: ApprovalPolicy): ApprovalPolicy {
  return {
    async decide(intent, ctx): Promise<PolicyDecision> {
      const verdict = await inner.decide(intent, ctx);
      if (verdict.type === 'ask' && /always asks/.test(verdict.reason))
        return { type: 'deny', reason: `${verdict.reason} (refused: nobody to ask in a non-interactive run)` };
      return verdict;
    },
  };
}

function policyFor(o: RunOptions): ApprovalPolicy {
  return createPolicy({
    autoApprove: o.approve,
    approveUnclassified: o.approveUnclassified,
    commandRules: { allow: o.allowCommands, deny: o.denyCommands },
  });
}

function makeProvider(o: RunOptions): ModelProvider {
  const window = o.contextWindow === undefined ? {} : { contextWindow: o.contextWindow };
  if (o.provider === 'scripted') return new ScriptedProvider(demoScript, { model: 'demo', capabilities: window });
  if (o.provider === 'openai') return createOpenAIProvider({ model: o.model ?? DEFAULT_MODELS.openai, baseURL: o.baseUrl, ...window });
  return createAnthropicProvider({ model: o.model ?? DEFAULT_MODELS.anthropic, baseURL: o.baseUrl, ...window });
}
