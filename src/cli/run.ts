// `keel run` and `keel resume`: one task through src/cli/task-run.ts, shown three ways. `--output text` (the
// default) streams the run to the terminal and ends with the context and cost line; `json`
// prints only the result record (schemas/run-result.schema.json) at the end; `jsonl` prints each
// event as it is logged and the result last. The exit status is the result's (EXIT_CODES).
import { EXIT_CODES, type RunResult } from '../compose/index.js';
import type { ConversationState, RuntimeEvent } from '../kernel/index.js';
import type { RunOptions } from './args.js';
import { rejectAll, terminalApprover, type Approver } from './approvals.js';
import { contextLine, streamPrinter } from './render.js';
import { noPlanWaiting } from '../compose/plan-approval.js';
import { planLaterHint, terminalPlanAnswer } from './plan-prompt.js';
import { renderTaskEvent } from './render-frames.js';
import { indexProgressPrinter } from './index-progress.js';
import { executeTask, sandboxNotice, tellWithheld, type TaskStart } from './task-run.js';

export { cliMemory, cliRuntime } from './task-run.js';

export const EXIT = {
  completed: EXIT_CODES.done,
  failed: EXIT_CODES.failed,
  usage: EXIT_CODES.usage,
  refused: EXIT_CODES.refused,
  interrupted: EXIT_CODES.stopped,
} as const;

export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Registers a handler for Ctrl+C; returns its remover. */
  onInterrupt(handler: () => void): () => void;
  /** Where the user's config folder is ($XDG_CONFIG_HOME, $HOME): the memory store lives there. */
  env: NodeJS.ProcessEnv;
  /** Told the run's result record once it ended (a worktree session keeps its status and cost). */
  onResult?(result: RunResult): void;
}

export async function runTask(options: RunOptions, io: CliIo): Promise<number> {
  return runAtTerminal(options, io, { type: 'new' });
}

/** Runs a task — a new one, or one resumed from its log — at the terminal; its exit status. */
export async function runAtTerminal(options: RunOptions, io: CliIo, start: TaskStart): Promise<number> {
  // Machine-readable output asks nobody anything: a prompt would corrupt it.
  const interactive = options.output === 'text' && !!io.stdin.isTTY;
  let stop = () => {};
  const approver: Approver = interactive ? terminalApprover(io.stdin, io.stdout, () => stop()) : rejectAll;
  const show = eventWriter(options.output, io.stdout);
  tellWithheld(io.env, options.passEnv, io.stderr);
  const { result, runtime, provider } = await executeTask(
    options,
    {
      env: io.env,
      stderr: io.stderr,
      interactive,
      approver,
      onSandboxUnavailable: sandboxNotice(options.sandbox, io.stderr, 'Every command asks before it runs.'),
      ...(interactive ? { answerPlan: terminalPlanAnswer(io.stdin, io.stdout) } : {}),
      onEvent: show.event,
      ...(options.output === 'text' ? { onIndexProgress: indexProgressPrinter(io.stderr) } : {}),
      onInterrupt: (handler) => {
        stop = handler;
        return io.onInterrupt(handler);
      },
    },
    start,
  );
  show.outcome(result);
  if (options.output === 'text') show.line(contextLine(runtime.preview(), runtime.getState(), provider.capabilities.contextWindow));
  // Nobody could be asked (no terminal, or machine-readable output): say how to approve it later.
  if (!interactive && !noPlanWaiting(runtime.getState())) io.stderr.write(`keel: ${planLaterHint(options.log)}\n`);
  show.result(result);
  io.onResult?.(result);
  return result.exitCode;
}

interface EventWriter {
  event(e: RuntimeEvent, state: ConversationState): void;
  /** The task's outcome in words, once it is known (text only). */
  outcome(result: RunResult): void;
  line(text: string): void;
  result(result: RunResult): void;
}

function eventWriter(output: RunOptions['output'], stdout: NodeJS.WritableStream): EventWriter {
  if (output === 'json') return { event: none, outcome: none, line: none, result: (r) => stdout.write(`${JSON.stringify(r, null, 2)}\n`) };
  if (output === 'jsonl')
    return {
      event: (event) => stdout.write(`${JSON.stringify({ type: 'event', event })}\n`),
      outcome: none,
      line: none,
      result: (result) => stdout.write(`${JSON.stringify({ type: 'result', result })}\n`),
    };
  return textWriter(stdout);
}

/**
 * The run as it streams. The task's own run_finished is not printed as it comes: a run that
 * finished may still end refused (exit 3) or over budget, so its line waits for the result and
 * says that. A failed or stopped run has printed its own line already.
 */
function textWriter(stdout: NodeJS.WritableStream): EventWriter {
  const printer = streamPrinter(stdout);
  let finished = false;
  return {
    event: (e, state) => {
      if (e.type === 'run_finished' && e.frame === undefined) finished = true;
      else renderTaskEvent(printer, e, state);
    },
    outcome: (r) => {
      if (finished)
        printer.line(
          r.status === 'done'
            ? '✓ done'
            : `${r.status === 'refused' ? '⚠' : '✗'} ${OUTCOME_WORDS[r.status]} (exit ${r.exitCode}): ${r.reason}`,
        );
    },
    line: (text) => printer.line(text),
    result: none,
  };
}

const none = () => {};

const OUTCOME_WORDS: Record<RunResult['status'], string> = {
  done: 'done',
  refused: 'ended with refusals',
  over_budget: 'over budget',
  failed: 'failed',
  stopped: 'stopped',
};
