// Which steps to fold, decided at prepare time. When the projected request passes the high-water
// mark (90% of the input budget), or the user asked, the oldest finished steps are chosen — as
// many as bring the request down to the low-water mark (50%), or all of them when asked. A step
// is an assistant turn with every result that answers it: never split. The latest step, and
// anything after a step still waiting for a result, stay live (the next turn depends on them).
// A live pointer into the range ("unchanged since step N") will carry its text again once the
// range is folded (context/pointers.ts): the plan counts that, so the fold still reaches its mark.
import type { ModelRequest } from '../contracts/model.js';
import type { ConversationState, StateMessage } from '../contracts/state.js';
import { toModelMessages } from '../projection.js';
import { renderContextBlock } from './context-block.js';
import { messagesTokens, requestTokens } from './tokens.js';
import { estimateTokens } from '../text.js';
import { isPointer, pointerTargets } from './pointers.js';

/**
 * Folding costs a rewrite of the cached prefix, so it waits until the request nears its budget: it
 * is judged on the request about to be sent (results included), so no request goes over for it.
 */
export const HIGH_WATER = 0.9;
export const LOW_WATER = 0.5;
/** Room planned for a new note before it is written (the note request asks for less). */
const NOTE_ALLOWANCE_TOKENS = 600;

type FoldReason = 'high_water' | 'requested';

export interface FoldPlan {
  reason: FoldReason;
  fromSeq: number;
  toSeq: number;
  steps: { first: number; last: number };
  /** The folded messages, in order. */
  messages: StateMessage[];
  tokensBefore: number;
}

interface Unit {
  messages: StateMessage[];
  /** Calls of this step still without a result. */
  open: Set<string>;
  step: number | undefined;
  tokens: number;
}

/** The fold to make before sending `request`, or undefined when none is due (or possible). */
export function planFold(state: ConversationState, request: ModelRequest, budgetTokens: number, requested: boolean): FoldPlan | undefined {
  const tokensBefore = requestTokens(request);
  if (!requested && tokensBefore <= HIGH_WATER * budgetTokens) return undefined;
  const units = liveUnits(state);
  const candidates = foldable(units);
  let estimate = tokensBefore + blockGrowth(state);
  const chosen: Unit[] = [];
  // A live pointer into the folded range will carry its text again: that is not saved.
  for (const unit of candidates) {
    if (!requested && estimate + repointed(state, units, chosen) <= LOW_WATER * budgetTokens) break;
    chosen.push(unit);
    estimate -= unit.tokens;
  }
  const steps = chosen.flatMap((u) => (u.step === undefined ? [] : [u.step]));
  if (steps.length === 0) return undefined;
  const messages = chosen.flatMap((u) => u.messages);
  return {
    reason: requested ? 'requested' : 'high_water',
    fromSeq: firstLiveSeq(state),
    toSeq: Math.max(...messages.map((m) => m.seq)),
    steps: { first: Math.min(...steps), last: Math.max(...steps) },
    messages,
    tokensBefore,
  };
}

/** The seq a new fold's range starts at: just after the last fold, or after the goal. */
function firstLiveSeq(state: ConversationState): number {
  if (state.context.foldedThrough > 0) return state.context.foldedThrough + 1;
  const goal = state.messages.find((m) => m.type === 'user');
  return (goal?.seq ?? 0) + 1;
}

/** How much the notes block grows with one more note (planned at its allowance). */
function blockGrowth(state: ConversationState): number {
  const { folds, ledgerAtFold } = state.context;
  const before = folds.length > 0 ? estimateTokens(renderContextBlock(folds, ledgerAtFold)) + 4 : 0;
  const placeholder = {
    fromSeq: 0,
    toSeq: 0,
    steps: { first: 0, last: 0 },
    note: 'x'.repeat(NOTE_ALLOWANCE_TOKENS * 4),
    source: 'model' as const,
  };
  const after = estimateTokens(renderContextBlock([...folds, placeholder], state.ledger)) + 4;
  return after - before;
}

/** The live history (after the goal and the folds so far) grouped into steps and user messages. */
function liveUnits(state: ConversationState): Unit[] {
  const goalAt = state.messages.findIndex((m) => m.type === 'user');
  const units: Unit[] = [];
  const owner = new Map<string, Unit>();
  state.messages.forEach((m, i) => {
    if (i === goalAt || m.seq <= state.context.foldedThrough) return;
    if (m.type === 'observation') {
      const unit = owner.get(m.observation.intentId);
      if (unit) {
        unit.messages.push(m);
        unit.open.delete(m.observation.intentId);
        return;
      }
    }
    const unit: Unit = { messages: [m], open: new Set(), step: undefined, tokens: 0 };
    if (m.type === 'assistant') {
      unit.step = m.step;
      for (const id of m.intentIds) {
        unit.open.add(id);
        owner.set(id, unit);
      }
    }
    units.push(unit);
  });
  for (const unit of units) unit.tokens = messagesTokens(toModelMessages(state, unit.messages));
  return units;
}

/** Tokens the live pointers (outside `chosen`) will carry again when the reads they point to in `chosen` fold. */
function repointed(state: ConversationState, units: readonly Unit[], chosen: readonly Unit[]): number {
  if (chosen.length === 0) return 0;
  const folded = new Set(chosen.flatMap((u) => u.messages.map((m) => m.seq)));
  let tokens = 0;
  for (const unit of units) {
    if (chosen.includes(unit)) continue;
    for (const m of unit.messages) {
      if (m.type !== 'observation' || !isPointer(m.observation)) continue;
      const targets = pointerTargets(state.messages, m);
      if (targets.some((t) => folded.has(t.seq))) for (const t of targets) tokens += estimateTokens(t.observation.content);
    }
  }
  return tokens;
}

/** Whole, finished units before the latest step, from the oldest, stopping at the first open one. */
function foldable(units: Unit[]): Unit[] {
  let latest = -1;
  units.forEach((u, i) => {
    if (u.step !== undefined) latest = i;
  });
  const out: Unit[] = [];
  for (let i = 0; i < latest; i++) {
    if (units[i]!.open.size > 0) break;
    out.push(units[i]!);
  }
  return out;
}
