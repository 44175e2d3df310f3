// The result record of a headless task that ran (src/compose/run-result.ts holds its schema):
// built from the runtime's state and events, the files its checkpoints show changed, and how the
// host saw it end. A resumed task's record covers the whole task, the part before the stop too.
import {
  EXIT_CODES,
  lastAnswer,
  lastTest,
  refusals,
  RUN_RESULT_VERSION,
  runOutcome,
  taskChanges,
  taskTurns,
  type RunEnding,
  type RunResult,
  type TaskChanges,
} from '../compose/index.js';
import type { Checkpoints, ModelProvider, Runtime, Workspace } from '../kernel/index.js';

export interface ResultInput {
  runtime: Runtime;
  provider: ModelProvider;
  workspace: Workspace;
  /** Undefined with --no-checkpoints: nothing was kept to compare against, so no files are listed. */
  checkpoints: Checkpoints | undefined;
  logPath: string | undefined;
  startedAt: Date;
  ending: RunEnding;
}

export async function taskResult(r: ResultInput): Promise<RunResult> {
  const state = r.runtime.getState();
  const events = r.runtime.getEvents();
  const { status, reason } = runOutcome(state, events, r.ending);
  const none: TaskChanges = { files: [], patch: '' };
  const changes = r.checkpoints ? await taskChanges(state.checkpoints, r.checkpoints, r.workspace) : none;
  const first = events.find((e) => e.type === 'user_message');
  const u = state.usage;
  return {
    version: RUN_RESULT_VERSION,
    status,
    reason,
    exitCode: EXIT_CODES[status],
    task: first?.type === 'user_message' ? first.text : '',
    answer: lastAnswer(state),
    workspace: r.workspace.root,
    provider: r.provider.name,
    model: r.provider.model,
    filesChanged: changes.files,
    patch: changes.patch,
    lastTest: lastTest(state),
    refusals: refusals(state, events),
    turns: taskTurns(state),
    tokens: { input: u.inputTokens, output: u.outputTokens, cacheRead: u.cacheReadTokens, cacheWrite: u.cacheWriteTokens },
    costUsd: u.costUsd ?? null,
    log: r.logPath ?? null,
    startedAt: r.startedAt.toISOString(),
    durationMs: Date.now() - r.startedAt.getTime(),
  };
}
