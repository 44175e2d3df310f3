// The loop's infer step: the request is prepared (folded first when due), checked against the
// window, and streamed; the model's events are logged as they come, its calls held until the turn
// completes. When the API answers that the request is over its window (context_overflow), the
// history is folded and the turn streams once more. A window too small for the system prompt,
// the tools, the goal and a minimal turn fails before anything is sent, with the numbers.
import type { ConversationState } from './contracts/state.js';
import type { ModelError, ModelEvent, ModelRequest } from './contracts/model.js';
import type { RuntimeEventInput } from './contracts/events.js';
import type { LoopHost } from './loop-host.js';
import { projectContext } from './projection.js';
import { type FoldHost, foldSteps, planFoldNow, prepareRequest } from './fold.js';
import { proposeIntent, type Proposal } from './intents.js';
import { messageOf } from './text.js';
import { fixedTokens, messageTokens } from './context/tokens.js';

export type TurnOutcome = { type: 'final'; proposals: Proposal[] } | { type: 'error'; error: ModelError } | { type: 'cancelled' };

/** The least room a turn needs beside the system prompt, the tools and the goal: a short reply and a short result. */
const MIN_TURN_TOKENS = 512;

export async function infer(h: LoopHost): Promise<TurnOutcome> {
  let request = await prepareRequest(foldHost(h), h.takeFoldRequest());
  for (let attempt = 0; ; attempt++) {
    if (!request || h.signal.aborted) return { type: 'cancelled' };
    const tooSmall = windowTooSmall(h, request);
    if (tooSmall) return modelError(h, { kind: 'context_overflow', message: tooSmall, retryable: false });
    const outcome = await streamTurn(h, request, attempt === 0);
    if (outcome.type === 'restart') {
      // The user's Retry on a stalled stream: what it streamed is void, the same request goes again.
      h.emit({ type: 'turn_retry', attempt: attempt + 1, delayMs: 0, error: RESTARTED });
      continue;
    }
    if (outcome.type !== 'overflow') return outcome;
    // The API's window is smaller than Keel's estimate: fold what can be folded, and send once more.
    h.emit({ type: 'turn_retry', attempt: 1, delayMs: 0, error: outcome.error });
    const plan = planFoldNow(foldHost(h), true);
    if (!plan) return modelError(h, outcome.error);
    if (!(await foldSteps(foldHost(h), plan))) return { type: 'cancelled' };
    request = projectFor(h, h.state());
  }
}

/** Why the window cannot hold even one turn, with the numbers; undefined when it can. */
function windowTooSmall(h: LoopHost, request: ModelRequest): string | undefined {
  const fixed = fixedTokens(request.system, request.tools);
  const goal = request.messages[0] ? messageTokens(request.messages[0]) : 0;
  const need = fixed + goal + MIN_TURN_TOKENS;
  if (need <= h.budgetTokens) return undefined;
  const { contextWindow, maxOutputTokens } = h.provider.capabilities;
  return (
    `The context window (${contextWindow} tokens, ${maxOutputTokens} of them kept for the answer) is too small: the system ` +
    `prompt and tools take ${fixed} tokens, the task's message ${goal}, and a turn needs at least ${MIN_TURN_TOKENS} more. ` +
    `Nothing was sent. Use a window of at least ${need + maxOutputTokens} tokens.`
  );
}

type StreamOutcome = TurnOutcome | { type: 'overflow'; error: ModelError } | { type: 'restart' };

const RESTARTED: ModelError = { kind: 'network', message: 'The model went quiet; the turn is streamed again.', retryable: true };

/**
 * Reads one turn's stream under the watchdog (stream-watch.ts): each event is a sign of life; a
 * silence past the idle timeout ends the turn with a retryable error, the user's Retry restarts it.
 */
async function streamTurn(h: LoopHost, request: ModelRequest, mayRetryOverflow: boolean): Promise<StreamOutcome> {
  const calls: Extract<ModelEvent, { type: 'tool_intent' }>[] = [];
  const watch = h.streamWatch.watch(h.signal, (silentMs) => h.output({ kind: 'activity', activity: { type: 'stalled', silentMs } }));
  const events = h.provider.stream(request, watch.signal)[Symbol.asyncIterator]();
  let drained = false;
  let abandoned = false;
  try {
    for (;;) {
      const next = await watch.race(events.next());
      if (h.signal.aborted) return { type: 'cancelled' };
      abandoned = 'type' in next;
      if ('type' in next) return next.type === 'restart' ? next : modelError(h, idleError(next.silentMs));
      if (next.done) {
        drained = true;
        break;
      }
      const ev = next.value;
      watch.heard(ev.type === 'retry' ? ev.delayMs : 0);
      if (ev.type === 'error' && ev.error.kind === 'context_overflow' && mayRetryOverflow) return { type: 'overflow', error: ev.error };
      const end = onModelEvent(h, ev, calls);
      if (end) return end;
    }
  } catch (err) {
    if (h.signal.aborted) return { type: 'cancelled' };
    return modelError(h, { kind: 'unknown', message: `The model provider failed: ${messageOf(err)}`, retryable: false });
  } finally {
    watch.end();
    // A stream left before its end is stopped. An abandoned one's request is aborted already, and
    // its read may never settle: it is not waited for.
    const closing = drained ? undefined : Promise.resolve(events.return?.()).catch(() => undefined);
    if (!abandoned) await closing;
  }
  if (h.signal.aborted) return { type: 'cancelled' };
  return modelError(h, { kind: 'network', message: 'The model stream ended before the turn was complete.', retryable: true });
}

function idleError(silentMs: number): ModelError {
  const seconds = Math.round(silentMs / 1000);
  return { kind: 'network', message: `The model sent nothing for ${seconds} s, so Keel stopped waiting for this turn.`, retryable: true };
}

/** The request the state projects to under this host's options. */
export function projectFor(
  h: Pick<LoopHost, 'registry' | 'visibility' | 'system' | 'budgetTokens' | 'provider'>,
  state: ConversationState,
  budgetTokens = h.budgetTokens,
) {
  return projectContext(state, {
    registry: h.registry,
    visibility: h.visibility,
    system: h.system,
    budgetTokens,
    maxOutputTokens: h.provider.capabilities.maxOutputTokens,
  });
}

export function foldHost(h: LoopHost): FoldHost {
  return {
    provider: h.provider,
    signal: h.signal,
    budgetTokens: h.budgetTokens,
    state: () => h.state(),
    emit: (e: RuntimeEventInput) => h.emit(e),
    project: (state: ConversationState, budget?: number) => projectFor(h, state, budget),
    ...(h.repoMap ? { repoMap: h.repoMap } : {}),
    ...(h.hooks ? { beforeFold: () => h.hooks!.notify(h, 'PreFold') } : {}),
  };
}

function onModelEvent(h: LoopHost, ev: ModelEvent, calls: Extract<ModelEvent, { type: 'tool_intent' }>[]): TurnOutcome | undefined {
  switch (ev.type) {
    case 'text_delta':
      // Created with every field the log stamps, so stamping adds no properties (the hot path).
      h.emit({ type: 'text_delta', text: ev.text, seq: 0, runId: '', time: 0 } as RuntimeEventInput);
      return undefined;
    case 'reasoning_delta':
      h.emit({ type: 'reasoning_delta', text: ev.text });
      return undefined;
    case 'reasoning':
      // Kept with the turn (the draft), so the next request, or a resumed task, can send it back.
      h.emit({ type: 'model_reasoning', reasoning: ev.reasoning });
      return undefined;
    case 'usage':
      h.emit({ type: 'usage', usage: ev.usage });
      return undefined;
    case 'tool_input_progress': {
      // Not logged: only a sign of progress for people while the call's input streams.
      const { call, tool, bytes, path } = ev;
      h.output({ kind: 'activity', activity: { type: 'tool_input', call, tool, bytes, ...(path === undefined ? {} : { path }) } });
      return undefined;
    }
    case 'tool_intent':
      // Held until the turn completes: an abandoned or failed turn proposes nothing.
      calls.push(ev);
      return undefined;
    case 'retry':
      calls.length = 0;
      h.emit({ type: 'turn_retry', attempt: ev.attempt, delayMs: ev.delayMs, error: ev.error });
      return undefined;
    case 'error':
      if (ev.error.kind === 'cancelled' || h.signal.aborted) return { type: 'cancelled' };
      return modelError(h, ev.error);
    case 'final': {
      const proposals = calls.map((c) => proposeIntent(h, c));
      h.emit({ type: 'model_final', stopReason: ev.stopReason });
      return { type: 'final', proposals };
    }
  }
}

function modelError(h: LoopHost, error: ModelError): TurnOutcome {
  h.emit({ type: 'model_error', error });
  return { type: 'error', error };
}
