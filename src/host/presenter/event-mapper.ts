// Maps each RuntimeOutput onto the TranscriptModel (which records the matching ops) and says
// whether the result must reach the webview at once instead of waiting for the next frame.
// The run's status and the usage are the kernel's: the presenter reads them from its state.
import type { Observation, RuntimeEvent, RuntimeOutput, TodoItem, ToolIntent, ToolKind } from '../../kernel/contracts/index.js';
import { observedStatus } from '../../kernel/reducer.js';
import { grantFor } from '../../kernel/grants.js';
import { hasHiddenCharacters, visibleText } from '../../kernel/visible-text.js';
import type { IntentItem, IntentResult, TodoView } from '../../protocol/index.js';
import { activityAfter, applyActivity, cutTurnText } from './stream-mapper.js';
import { applyCheckpointEvent } from './checkpoint-mapper.js';
import type { TranscriptModel } from './transcript-model.js';
import { applyFrameEvent } from './frame-mapper.js';
import { PLAN_TOOL } from '../../kernel/frames.js';
import { modelKeptText } from '../../kernel/agent-model.js';
import { isGateRefusal } from '../../kernel/skill-gate.js';
import { keelPromptOf } from '../session/prompts.js';

/** Bound of an observation's excerpt in a card (the model saw the whole content). */
const DETAIL_CHARS = 8192;

export function applyOutput(model: TranscriptModel, out: RuntimeOutput): { urgent: boolean } {
  if (out.kind === 'tool_output') {
    model.progress(out.intentId, out.chunk);
    return { urgent: false };
  }
  if (out.kind === 'activity') return { urgent: applyActivity(model, out.activity) };
  activityAfter(model, out.event);
  return { urgent: applyEvent(model, out.event) };
}

function applyEvent(model: TranscriptModel, event: RuntimeEvent): boolean {
  // A sub-agent's event: its own item and nested cards (frame-mapper.ts).
  if (event.frame !== undefined) return applyFrameEvent(model, event, event.frame);
  switch (event.type) {
    case 'user_message':
      model.tally.conversation += event.text.length;
      model.add({ kind: 'user', id: `u${event.seq}`, text: event.text, ...userExtras(event) });
      return true;
    case 'rules_used':
      model.setHints({ rules: event.paths });
      return false;
    case 'run_started':
    case 'run_resumed':
      model.setHints({ canResume: false });
      retireRetry(model);
      // The custom agent named a model this task cannot run: the task's ran, and the user is told.
      if (event.type === 'run_started' && event.modelKept) {
        model.add({ kind: 'notice', id: `n${event.seq}`, level: 'info', text: modelKeptText(event.modelKept, event.model) });
        return true;
      }
      return false;
    case 'turn_started':
      model.startTurn();
      model.setRetry(null);
      return false;
    case 'text_delta':
      return streamText(model, event, 'assistant');
    case 'reasoning_delta':
      return streamText(model, event, 'reasoning');
    case 'usage':
      model.foldedSinceTurn = false;
      return false;
    case 'context_folded':
      model.folds++;
      // The last turn's input no longer says what is in use: the estimate does until the next turn.
      model.foldedSinceTurn = true;
      model.add({
        kind: 'fold',
        id: `f${event.seq}`,
        firstStep: event.steps.first,
        lastStep: event.steps.last,
        note: event.note,
        source: event.source,
        requested: event.reason === 'requested',
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
      });
      return true;
    case 'model_final':
      model.finishText(model.currentTextId);
      model.finishText(model.currentReasoningId);
      return false;
    case 'model_error':
      // The turn ended without its stream's end: what it showed stays, marked as cut (run_failed says why).
      cutTurnText(model);
      return false;
    case 'turn_retry':
      cutTurnText(model);
      model.startTurn();
      model.setRetry({ attempt: event.attempt, delayMs: event.delayMs, message: event.error.message });
      return true;
    case 'mode_set':
      model.setHints({ mode: event.mode });
      return true;
    case 'agent_set':
      // The header's picker shows the task's custom agent (a reloaded task's too); the view gets text.
      model.setHints({ agent: event.agent ? visibleText(event.agent.name).slice(0, 64) : undefined });
      return true;
    case 'hook_ran':
      return hookNotice(model, event);
    case 'observation':
      // The task's own list (a sub-agent's stays in its frame): pinned above the composer.
      if (event.observation.ok && event.observation.facts?.todos) model.setHints({ todos: todoViews(event.observation.facts.todos) });
      return applyIntentEvent(model, event) ?? false;
    default:
      return applyIntentEvent(model, event) ?? applyCheckpointEvent(model, event) ?? applyEndEvent(model, event);
  }
}

/**
 * A hook that blocked, failed or asked is shown as a notice; one that let things through stays
 * quiet, and so does a PreToolUse hook: the call's own card shows its block or its question.
 */
function hookNotice(model: TranscriptModel, e: Extract<RuntimeEvent, { type: 'hook_ran' }>): boolean {
  if (e.outcome === 'allow' || e.outcome === 'context' || e.point === 'PreToolUse') return false;
  // After the call a block is feedback for the model: the call has run.
  const blocked = e.point === 'PostToolUse' ? 'objected to the result of' : 'blocked';
  const what = e.outcome === 'block' ? blocked : e.outcome === 'ask' ? 'asks about' : 'failed on';
  const target = e.tool ?? (e.point === 'UserPromptSubmit' ? 'your message' : e.point);
  const text = `A hook ${what} ${target}: ${e.reason ?? ''} — ${e.hook} (${e.source})`;
  model.add({ kind: 'notice', id: `h${e.seq}`, level: e.outcome === 'ask' ? 'info' : 'warning', text: visibleText(text) });
  return true;
}

/** The model's items as the view shows them, anything invisible in their words made visible. */
function todoViews(todos: readonly TodoItem[]): TodoView[] {
  return todos.map((t) => ({ id: visibleText(t.id), text: visibleText(t.text), status: t.status }));
}

function streamText(model: TranscriptModel, event: RuntimeEvent & { text: string }, kind: 'assistant' | 'reasoning'): boolean {
  if (kind === 'assistant') model.tally.conversation += event.text.length;
  const current = kind === 'assistant' ? model.currentTextId : model.currentReasoningId;
  model.setRetry(null);
  if (current !== undefined && model.get(current)) {
    model.appendText(current, event.text);
    return false;
  }
  const id = `${kind === 'assistant' ? 'a' : 'r'}${event.seq}`;
  model.add({ kind, id, text: event.text });
  model.turnItemIds.push(id);
  if (kind === 'assistant') model.currentTextId = id;
  else model.currentReasoningId = id;
  // The first words of a reply should not wait a frame.
  return kind === 'assistant';
}

export function applyIntentEvent(model: TranscriptModel, event: RuntimeEvent): boolean | undefined {
  switch (event.type) {
    case 'intent_proposed':
      model.add(planned(intentItem(event.intent, model.toolKind(event.intent.tool)), event.intent));
      return false;
    case 'approval_requested':
      model.patchIntent(event.intentId, {
        status: 'awaiting_approval',
        approvalReason: visibleText(event.reason),
        // The command the policy resolved (run_tests without one): shown whole, like any command.
        ...(event.command
          ? { command: visibleText(event.command), ...(hasHiddenCharacters(event.command) ? { hiddenChars: true } : {}) }
          : {}),
      });
      return true;
    case 'intent_approved':
      model.patchIntent(event.intentId, { status: 'approved', approvedScope: event.scope, autoApproved: event.auto });
      return false;
    case 'intent_rejected':
      model.patchIntent(event.intentId, { status: 'rejected', rejectReason: event.reason });
      return false;
    case 'intent_started':
      model.patchIntent(event.intentId, { status: 'running', startedAt: event.time });
      return false;
    case 'observation':
      observe(model, event.observation, event.time);
      return false;
    default:
      return undefined;
  }
}

/** A delegate_plan card carries its tasks, for the plan's live list. */
function planned(item: IntentItem, intent: ToolIntent): IntentItem {
  if (intent.tool !== PLAN_TOOL) return item;
  const tasks = (intent.input as { tasks?: { id: string; depends_on?: string[] }[] } | null)?.tasks ?? [];
  return { ...item, plan: tasks.map((t) => ({ id: visibleText(t.id), dependsOn: (t.depends_on ?? []).map(visibleText) })) };
}

/** The card of a proposed call: what a person judges, with nothing in it hidden. */
export function intentItem(intent: ToolIntent, toolKind?: ToolKind): IntentItem {
  const command = (intent.input as { command?: unknown } | null)?.command;
  const judged = [intent.summary, ...intent.paths, ...(typeof command === 'string' ? [command] : [])];
  const { origin } = grantFor(intent, 'task');
  return {
    kind: 'intent',
    id: intent.id,
    tool: intent.tool,
    ...(toolKind ? { toolKind } : {}),
    summary: visibleText(intent.summary),
    risk: intent.risk,
    status: intent.status,
    ...(intent.paths.length ? { paths: intent.paths.map(visibleText) } : {}),
    ...(typeof command === 'string' ? { command: visibleText(command) } : {}),
    ...(origin === undefined ? {} : { grantOrigin: visibleText(origin) }),
    ...(judged.some(hasHiddenCharacters) ? { hiddenChars: true } : {}),
  };
}

function observe(model: TranscriptModel, observation: Observation, time: number): void {
  model.tally.toolResults += observation.content.length;
  const intent = model.intent(observation.intentId);
  if (!intent) return;
  const elapsedMs = intent.startedAt === undefined ? undefined : Math.max(0, time - intent.startedAt);
  // A to-do update the pin now shows is not said a second time as a card (a failed one stays).
  // Known by the list it reports (the observation's facts), not by the tool's name.
  if (intent.frame === undefined && observation.ok && observation.facts?.todos) {
    model.remove(intent.id);
    return;
  }
  model.patchIntent(intent.id, {
    status: observedStatus(intent.status, observation),
    result: resultOf(observation),
    ...(elapsedMs === undefined ? {} : { elapsedMs }),
  });
}

function resultOf(observation: Observation): IntentResult {
  const firstLine = observation.content.split('\n', 1)[0]!.slice(0, 160);
  const summary = observation.summary ?? (firstLine || (observation.ok ? 'done' : 'failed'));
  return {
    ok: observation.ok,
    ...(failedCheck(observation) ? { failing: true } : {}),
    ...(isGateRefusal(observation.code) ? { notRun: true } : {}),
    summary,
    ...(observation.content ? { detail: excerpt(observation.content) } : {}),
    ...(observation.code ? { code: observation.code } : {}),
    ...readOf(observation),
  };
}

/** What a read established, from its facts (never from the tool's name): a file's text, or a search. */
function readOf(observation: Observation): Pick<IntentResult, 'read'> {
  const facts = observation.facts;
  if (facts?.read || facts?.unchanged) return { read: 'file' };
  return facts?.search ? { read: 'search' } : {};
}

/** The call ran, but what it checked failed: tests failing, a command's non-zero exit. */
function failedCheck(observation: Observation): boolean {
  const { test, command } = observation.facts ?? {};
  if (test) return !test.ok;
  return command !== undefined && command.exitCode !== 0;
}

function excerpt(text: string): string {
  if (text.length <= DETAIL_CHARS) return text;
  const half = DETAIL_CHARS / 2;
  return `${text.slice(0, half)}\n… ${text.length - DETAIL_CHARS} characters omitted …\n${text.slice(-half)}`;
}

function applyEndEvent(model: TranscriptModel, event: RuntimeEvent): boolean {
  model.finishText(model.currentTextId);
  model.finishText(model.currentReasoningId);
  model.setRetry(null);
  switch (event.type) {
    case 'run_finished':
      return true;
    case 'run_cancelled':
      model.add({ kind: 'notice', id: `n${event.seq}`, level: 'info', text: 'Stopped.' });
      return true;
    case 'run_failed': {
      const auth = event.error.kind === 'auth';
      const id = `n${event.seq}`;
      retireRetry(model);
      // Sending the same request again cannot fit a context that overflowed: no Retry there.
      const retry = !UNFIXABLE_BY_RETRY.has(event.error.kind);
      model.add({
        kind: 'notice',
        id,
        level: 'error',
        text: event.error.message,
        action: auth ? { label: 'Set API Key', message: 'apiKey/set' } : { label: 'Show Log', message: 'log/show' },
        ...(retry ? { retry: true } : {}),
      });
      model.retryNoticeId = retry ? id : undefined;
      return true;
    }
    default:
      return false;
  }
}

/** Failures the same request, sent again, would meet again. */
const UNFIXABLE_BY_RETRY = new Set<string>(['context_overflow']);

/** An older failure's Retry goes away once another run starts (it would re-send something stale). */
function retireRetry(model: TranscriptModel): void {
  const id = model.retryNoticeId;
  model.retryNoticeId = undefined;
  const notice = id === undefined ? undefined : model.get(id);
  if (notice?.kind !== 'notice' || !notice.retry) return;
  const { retry: _retry, ...rest } = notice;
  model.replace(rest);
}

/** A user message's chips and thumbnails (the attachments' content stays in the log). */
function userExtras(event: Extract<RuntimeEvent, { type: 'user_message' }>) {
  const keel = keelPromptOf(event.text);
  const attachments = event.attachments?.map((a) => ({ kind: a.kind, label: a.label, ...(a.cutChars ? { cutChars: a.cutChars } : {}) }));
  return {
    ...(keel ? { keel } : {}),
    ...(attachments?.length ? { attachments } : {}),
    ...(event.images?.length ? { images: event.images } : {}),
  };
}
