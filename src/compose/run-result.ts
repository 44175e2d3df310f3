// The machine-readable end of a headless task: what `keel run --output json` prints, what a fleet
// job stores and what `keel serve --a2a` returns as an artifact. One zod schema is the source:
// `schemas/run-result.schema.json` is generated from it (scripts/write-schemas.ts) and a test
// keeps the two equal. The outcome is decided from structured facts (the run's status, the
// observations' codes, the host's stop flags), never from message text.
import { z } from 'zod';
import { findIntent, type ConversationState, type RuntimeEvent } from '../kernel/index.js';

export const RUN_RESULT_VERSION = 1;

const RunOutcomeSchema = z
  .enum(['done', 'failed', 'refused', 'over_budget', 'stopped'])
  .describe(
    'done: the task ended normally. failed: the run failed (model error, turn limit, a job that could not start). ' +
      'refused: the run ended, but a call was refused by policy or needed an approval nobody gave (or a hook kept the task from being sent). ' +
      'over_budget: a cost, token or turn cap stopped it (the partial work is kept). stopped: interrupted (Ctrl+C, a signal, a cancel).',
  );
export type RunOutcome = z.infer<typeof RunOutcomeSchema>;

/** The exit status of each outcome: one table for `keel run`, its --help and the README. */
export const EXIT_CODES: Readonly<Record<RunOutcome | 'usage', number>> = {
  done: 0,
  failed: 1,
  over_budget: 1,
  usage: 2,
  refused: 3,
  stopped: 130,
};

const FileChangeSchema = z.object({
  path: z.string().describe('Workspace-relative, POSIX separators.'),
  change: z.enum(['created', 'modified', 'deleted']),
  added: z.number().int().min(0).describe('Lines added (0 for a binary file).'),
  removed: z.number().int().min(0).describe('Lines removed (0 for a binary file).'),
  binary: z.boolean().optional().describe('True when the file is binary: the patch names it without its lines.'),
});
export type FileChange = z.infer<typeof FileChangeSchema>;

const RefusalSchema = z.object({
  tool: z.string(),
  summary: z.string().describe('The call as the approval would have shown it.'),
  code: z
    .enum(['rejected_by_user', 'permission_denied'])
    .describe(
      'rejected_by_user: a person said no at the terminal; permission_denied: policy refused it, or it needed an approval nobody could give (unanswered).',
    ),
  unanswered: z.boolean().describe('True when the call asked for an approval and nobody could answer (a run without a terminal).'),
  reason: z.string(),
});

export const RunResultSchema = z
  .object({
    version: z.literal(RUN_RESULT_VERSION),
    status: RunOutcomeSchema,
    reason: z.string().describe('One line for people: why the run ended as it did.'),
    exitCode: z.number().int().describe('The exit status `keel run` ends with for this result.'),
    task: z.string(),
    answer: z.string().describe("The task's last answer from the model (empty when there was none)."),
    workspace: z.string().describe('The folder the task ran in.'),
    provider: z.string(),
    model: z.string(),
    filesChanged: z
      .array(FileChangeSchema)
      .describe('Empty when the run kept no checkpoints (--no-checkpoints): nothing to compare against.'),
    patch: z.string().describe('A unified diff of every file the task changed, against the state before its first change.'),
    lastTest: z
      .object({ command: z.string(), passed: z.number().int(), failed: z.number().int(), ok: z.boolean() })
      .nullable()
      .describe('The last test run of the task, or null.'),
    refusals: z.array(RefusalSchema),
    turns: z.number().int().min(0).describe("Model turns, the sub-agents' included."),
    tokens: z.object({
      input: z.number().int().min(0),
      output: z.number().int().min(0),
      cacheRead: z.number().int().min(0),
      cacheWrite: z.number().int().min(0),
    }),
    costUsd: z.number().nullable().describe("null when the model's price is unknown."),
    log: z.string().nullable().describe("The task's JSON Lines event log, or null when none was kept."),
    startedAt: z.string().describe('ISO 8601.'),
    durationMs: z.number().int().min(0),
  })
  .describe('The result of one headless Keel task (keel run --output json, a fleet job, an A2A task).');
export type RunResult = z.infer<typeof RunResultSchema>;

/** What the host knows about how the run stopped, beside the state. */
export interface RunEnding {
  /** The user or a signal stopped it. */
  interrupted: boolean;
  /** A budget stopped it: why. */
  overBudget?: string | undefined;
}

/** The outcome and its one-line reason, from the state, the events and the host's flags. */
export function runOutcome(
  state: ConversationState,
  events: readonly RuntimeEvent[],
  ending: RunEnding,
): { status: RunOutcome; reason: string } {
  if (ending.interrupted) return { status: 'stopped', reason: 'Stopped before the task ended.' };
  if (ending.overBudget) return { status: 'over_budget', reason: ending.overBudget };
  const unsent = promptBlocked(events);
  if (unsent) return { status: 'refused', reason: unsent };
  if (state.status === 'failed' && state.lastError?.kind === 'max_turns') return { status: 'over_budget', reason: state.lastError.message };
  if (state.status === 'failed') return { status: 'failed', reason: state.lastError?.message ?? 'The run failed.' };
  if (state.status !== 'completed') return { status: 'stopped', reason: `The run ended while ${state.status}.` };
  const refused = refusals(state, events);
  if (refused.length > 0) {
    const what = refused.map((r) => r.tool).join(', ');
    return { status: 'refused', reason: `${refused.length} call(s) refused or not approved: ${what}.` };
  }
  return { status: 'done', reason: 'The task ended.' };
}

/** Why the task's message was never sent: a UserPromptSubmit hook blocked it (nothing ran). */
function promptBlocked(events: readonly RuntimeEvent[]): string | undefined {
  if (events.some((e) => e.type === 'user_message')) return undefined;
  const blocked = events.find(
    (e) => e.type === 'hook_ran' && e.point === 'UserPromptSubmit' && (e.outcome === 'block' || e.outcome === 'error'),
  );
  return blocked?.type === 'hook_ran'
    ? `A hook kept the task from being sent: ${blocked.reason ?? 'no reason given'} (${blocked.source}).`
    : undefined;
}

/** Every call refused by policy or left unapproved, in any frame. */
export function refusals(state: ConversationState, events: readonly RuntimeEvent[]): RunResult['refusals'] {
  const unanswered = new Set<string>();
  for (const e of events) if (e.type === 'intent_rejected' && e.unanswered) unanswered.add(e.intentId);
  const out: RunResult['refusals'] = [];
  for (const e of events) {
    if (e.type !== 'observation') continue;
    const code = e.observation.code;
    if (code !== 'rejected_by_user' && code !== 'permission_denied') continue;
    const id = e.observation.intentId;
    const intent = findIntent(state, id)?.intent;
    out.push({
      tool: intent?.tool ?? 'unknown',
      summary: intent?.summary ?? '',
      code,
      unanswered: unanswered.has(id),
      reason: e.observation.content,
    });
  }
  return out;
}

/** The task's last answer: the root frame's last assistant text. */
export function lastAnswer(state: ConversationState): string {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const m = state.messages[i]!;
    if (m.type === 'assistant' && m.text.trim()) return m.text.trim();
  }
  return '';
}

/** The last test result the ledger holds (the most recent step wins). */
export function lastTest(state: ConversationState): RunResult['lastTest'] {
  let best: (RunResult['lastTest'] & { step: number }) | null = null;
  for (const [command, t] of Object.entries(state.ledger.tests)) {
    if (!best || t.step >= best.step) best = { command, passed: t.passed, failed: t.failed, ok: t.ok, step: t.step };
  }
  if (!best) return null;
  const { step: _step, ...rest } = best;
  return rest;
}

/** Model turns across the task: the root's and every sub-agent's. */
export function taskTurns(state: ConversationState): number {
  return state.turn + state.childTurns;
}

/** The result of a task that never ran (its workspace could not be made, its budget was spent). */
export function unstartedResult(input: {
  task: string;
  workspace: string;
  model: string;
  status: Extract<RunOutcome, 'failed' | 'over_budget' | 'stopped'>;
  reason: string;
  startedAt: Date;
}): RunResult {
  return {
    version: RUN_RESULT_VERSION,
    status: input.status,
    reason: input.reason,
    exitCode: EXIT_CODES[input.status],
    task: input.task,
    answer: '',
    workspace: input.workspace,
    provider: '',
    model: input.model,
    filesChanged: [],
    patch: '',
    lastTest: null,
    refusals: [],
    turns: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: null,
    log: null,
    startedAt: input.startedAt.toISOString(),
    durationMs: Date.now() - input.startedAt.getTime(),
  };
}
