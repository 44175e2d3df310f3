// Folding at prepare time: the request about to be sent is checked against the fold marks;
// when a fold is due (or was asked for), the note is written and a `context_folded` event
// logged, and the request is projected again — now with the note in place of the folded steps.
import type { ModelProvider, ModelRequest, Usage } from './contracts/model.js';
import type { RuntimeEvent, RuntimeEventInput } from './contracts/events.js';
import type { ConversationState } from './contracts/state.js';
import { planFold, type FoldPlan } from './context/fold-plan.js';
import { fallbackNote, modelNote, noteRequest, NOTE_MAX_OUTPUT_TOKENS } from './context/fold-note.js';
import { requestTokens } from './context/tokens.js';
import { addUsage, applyEvent } from './reducer.js';
import type { RepoMapBuilder } from './runtime-options.js';
import { repoMapBudget } from './context/repo-map-budget.js';

export interface FoldHost {
  readonly provider: ModelProvider;
  readonly signal: AbortSignal;
  readonly budgetTokens: number;
  state(): ConversationState;
  emit(event: RuntimeEventInput): void;
  /**
   * The request the state projects to (the loop's projection options), within `budgetTokens`
   * (the host's budget when absent; Infinity: every live message whole).
   */
  project(state: ConversationState, budgetTokens?: number): ModelRequest;
  /** Builds the repo map; absent: the prefix has none. */
  repoMap?: RepoMapBuilder;
  /** Tells the PreFold hooks a fold is about to be written; absent: no hooks. */
  beforeFold?: () => Promise<void>;
}

type Written = { note: string; source: 'model' | 'fallback'; usage?: Usage };

/**
 * The next request, folded first when due. The marks are checked against the history as it is,
 * before any last-resort shortening (which would change old outputs, and so the prefix, turn
 * after turn). Undefined when the run was cancelled meanwhile.
 */
export async function prepareRequest(h: FoldHost, requested: boolean): Promise<ModelRequest | undefined> {
  // The map is built before the first request, and asked for again each turn while it is pending.
  const { repoMap, repoMapPending } = h.state().context;
  const mapDue = repoMap === undefined ? 'start' : repoMapPending ? 'late' : undefined;
  if (mapDue && !(await refreshRepoMap(h, mapDue))) return undefined;
  const plan = planFoldNow(h, requested);
  if (!plan) return h.project(h.state());
  if (!(await foldSteps(h, plan))) return undefined;
  return h.project(h.state());
}

/** The fold due now (or asked for), judged on the whole live history. */
export function planFoldNow(h: FoldHost, requested: boolean): FoldPlan | undefined {
  return planFold(h.state(), h.project(h.state(), Number.POSITIVE_INFINITY), h.budgetTokens, requested);
}

/** Writes the note and logs the fold. False when cancelled (nothing is logged then). */
export async function foldSteps(h: FoldHost, plan: FoldPlan): Promise<boolean> {
  await h.beforeFold?.();
  // The note request may use the whole window but the note's own output: past the turn budget,
  // so the history it summarises goes whole, as the last turn request showed it.
  const window = h.provider.capabilities.contextWindow - NOTE_MAX_OUTPUT_TOKENS;
  const request = h.project(h.state(), Math.max(h.budgetTokens, window));
  const written = await writeNote(h, plan, request);
  if (written === 'cancelled') return false;
  // The prefix changes at a fold anyway: the map is rebuilt then, and only then.
  if (!(await refreshRepoMap(h, 'fold'))) return false;
  const event: Extract<RuntimeEventInput, { type: 'context_folded' }> = {
    type: 'context_folded',
    fromSeq: plan.fromSeq,
    toSeq: plan.toSeq,
    steps: plan.steps,
    note: written.note,
    source: written.source,
    reason: plan.reason,
    tokensBefore: plan.tokensBefore,
    tokensAfter: 0,
  };
  if (written.usage) event.usage = written.usage;
  event.tokensAfter = tokensAfterFold(h, event);
  h.emit(event);
  return true;
}

/** What the request will weigh once the fold is in: projected from the state it leads to. */
function tokensAfterFold(h: FoldHost, event: Extract<RuntimeEventInput, { type: 'context_folded' }>): number {
  const state = h.state();
  const stamped = { ...event, seq: state.lastSeq + 1, runId: state.runId ?? '', time: 0 } as RuntimeEvent;
  return requestTokens(h.project(applyEvent(state, stamped)));
}

async function writeNote(h: FoldHost, plan: FoldPlan, request: ModelRequest): Promise<Written | 'cancelled'> {
  const state = h.state();
  const fallback = (usage?: Usage): Written => ({ note: fallbackNote(state, plan), source: 'fallback', ...(usage ? { usage } : {}) });
  if (h.provider.capabilities.writesNotes === false) return fallback();
  let text = '';
  let usage: Usage | undefined;
  let failed = false;
  let called = false;
  try {
    for await (const ev of h.provider.stream(noteRequest(request, state, plan), h.signal)) {
      if (ev.type === 'text_delta') text += ev.text;
      else if (ev.type === 'usage') usage = usage ? addUsage(usage, ev.usage) : ev.usage;
      else if (ev.type === 'retry') [text, called] = ['', false];
      // A reply that calls a tool is not a note (its text may be a preamble to the call).
      else if (ev.type === 'tool_intent') called = true;
      else if (ev.type === 'error' || ev.type === 'final') {
        failed = ev.type === 'error' || ev.stopReason === 'refusal' || ev.stopReason === 'error';
        break;
      }
    }
  } catch {
    failed = true;
  }
  if (h.signal.aborted) return 'cancelled';
  const note = text.trim().slice(0, NOTE_MAX_OUTPUT_TOKENS * 6);
  return failed || called || note === '' ? fallback(usage) : { note: modelNote(note, plan), source: 'model', ...(usage ? { usage } : {}) };
}

/**
 * Builds the repo map and logs it when it changed (a failed build keeps the old one, or none).
 * A map the host could not wait for is logged pending once (the prefix says it comes later) and
 * logged again when a later turn finds it ready. False when the run was cancelled meanwhile.
 */
async function refreshRepoMap(h: FoldHost, reason: 'start' | 'fold' | 'late'): Promise<boolean> {
  const budget = repoMapBudget(h.budgetTokens);
  if (!h.repoMap || budget === 0) return true;
  const map = await h.repoMap(h.state(), budget, h.signal, reason).catch(() => undefined);
  if (h.signal.aborted) return false;
  const { repoMap: known, repoMapPending: wasPending } = h.state().context;
  if (map?.pending) {
    if (known === undefined) h.emit({ type: 'repo_map_built', text: '', files: 0, totalFiles: 0, reason, pending: true });
    return true;
  }
  const text = map?.text ?? '';
  if (known !== undefined && !wasPending && (text === known || (text === '' && reason === 'fold'))) return true;
  h.emit({ type: 'repo_map_built', text, files: map?.files ?? 0, totalFiles: map?.totalFiles ?? 0, reason });
  return true;
}
