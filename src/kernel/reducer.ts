// The reducer: ConversationState folded from RuntimeEvents one at a time. Pure: it never
// mutates its input and touches only what the event changes, so each step costs O(1) for
// streamed text (the turn being streamed lives in `draft`, not in `messages`).
import type { ConversationState, Draft, StateMessage } from './contracts/state.js';
import type { FrameRecord } from './contracts/state.js';
import type { RuntimeEvent } from './contracts/events.js';
import type { IntentStatus, Observation, ToolIntent } from './contracts/tool.js';
import type { Usage } from './contracts/model.js';
import type { SandboxProfile } from './contracts/sandbox.js';
import { emptyLedger, ledgerAfter } from './context/ledger.js';
import { activateSkill, NO_SKILLS } from './skill-gate.js';
import { addGrant } from './grants.js';

const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export function initialState(): ConversationState {
  return {
    mode: 'agent',
    agent: undefined,
    status: 'idle',
    runId: undefined,
    turn: 0,
    messages: [],
    draft: undefined,
    intents: {},
    pendingIntentIds: [],
    grants: [],
    usage: ZERO_USAGE,
    lastTurnUsage: undefined,
    lastError: undefined,
    retrying: undefined,
    fileVersions: {},
    ledger: emptyLedger(),
    context: { folds: [], foldedThrough: 0, ledgerAtFold: undefined },
    provider: undefined,
    checkpoints: [],
    rules: [],
    skills: NO_SKILLS,
    frames: {},
    childTurns: 0,
    lastSeq: 0,
  };
}

export function replay(events: Iterable<RuntimeEvent>, from: ConversationState = initialState()): ConversationState {
  let state = from;
  for (const event of events) state = applyEvent(state, event);
  return state;
}

export function applyEvent(state: ConversationState, event: RuntimeEvent): ConversationState {
  if (event.frame !== undefined) return applyFramed(state, event, event.frame);
  return applyOwn(state, event);
}

/** An event of the frame `state` belongs to. */
function applyOwn(state: ConversationState, event: RuntimeEvent): ConversationState {
  const next = step(state, event);
  if (next === state) return { ...state, lastSeq: event.seq };
  // `step` returned a fresh object: stamping it in place saves a second copy per event.
  next.lastSeq = event.seq;
  return next;
}

/**
 * A child frame's event changes that frame's own state (the same reducer, the frame's events
 * only); the task keeps just the totals: its usage meter and the count of child turns.
 * A sub-agent streams its text through here, one call per delta: the task state and the frame
 * record are copied once each, as literals (see withDraft), not spread — spreading them cost
 * about ten times the root's delta.
 */
function applyFramed(s: ConversationState, e: RuntimeEvent, frameId: string): ConversationState {
  const record = e.type === 'frame_started' ? newFrame(e, frameId) : s.frames[frameId];
  if (!record) return { ...s, lastSeq: e.seq };
  const frames = { ...s.frames, [frameId]: withFrameState(record, applyOwn(record.state, e)) };
  const spent = e.type === 'usage' || e.type === 'context_folded' ? e.usage : undefined;
  const usage = spent ? addUsage(s.usage, spent) : s.usage;
  const childTurns = e.type === 'turn_started' ? s.childTurns + 1 : s.childTurns;
  return withTotals(s, frames, usage, childTurns, e.seq);
}

/** The task state after one of its frames' events: every field spelled out, in initialState's order. */
function withTotals(
  s: ConversationState,
  frames: ConversationState['frames'],
  usage: Usage,
  childTurns: number,
  lastSeq: number,
): ConversationState {
  return {
    mode: s.mode,
    agent: s.agent,
    status: s.status,
    runId: s.runId,
    turn: s.turn,
    messages: s.messages,
    draft: s.draft,
    intents: s.intents,
    pendingIntentIds: s.pendingIntentIds,
    grants: s.grants,
    usage,
    lastTurnUsage: s.lastTurnUsage,
    lastError: s.lastError,
    retrying: s.retrying,
    fileVersions: s.fileVersions,
    ledger: s.ledger,
    context: s.context,
    provider: s.provider,
    checkpoints: s.checkpoints,
    rules: s.rules,
    skills: s.skills,
    frames,
    childTurns,
    lastSeq,
  };
}

/** The record with the frame's new state; every field spelled out, in newFrame's order. */
function withFrameState(r: FrameRecord, state: ConversationState): FrameRecord {
  return {
    id: r.id,
    parentIntentId: r.parentIntentId,
    parentFrame: r.parentFrame,
    depth: r.depth,
    task: r.task,
    tools: r.tools,
    maxTurns: r.maxTurns,
    planTaskId: r.planTaskId,
    state,
  };
}

function newFrame(e: Extract<RuntimeEvent, { type: 'frame_started' }>, id: string): FrameRecord {
  return {
    id,
    parentIntentId: e.parentIntentId,
    parentFrame: e.parentFrame,
    depth: e.depth,
    task: e.task,
    tools: e.tools,
    maxTurns: e.maxTurns,
    planTaskId: e.planTaskId,
    state: initialState(),
  };
}

function step(s: ConversationState, e: RuntimeEvent): ConversationState {
  switch (e.type) {
    case 'frame_started':
      return s;
    case 'user_message':
      return {
        ...s,
        messages: [
          ...s.messages,
          {
            type: 'user',
            seq: e.seq,
            text: e.text,
            ...(e.images ? { images: e.images } : {}),
            ...(e.attachments ? { attachments: e.attachments } : {}),
            ...(e.hookContext ? { hookContext: e.hookContext } : {}),
            ...(s.mode !== 'agent' ? { mode: s.mode } : {}),
          },
        ],
        skills: NO_SKILLS,
      };
    case 'mode_set':
      return s.mode === e.mode ? s : { ...s, mode: e.mode };
    case 'agent_set':
      return { ...s, agent: e.agent };
    case 'run_started':
      return {
        ...s,
        status: 'running',
        runId: e.runId,
        turn: 0,
        lastError: undefined,
        retrying: undefined,
        provider: { name: e.provider, model: e.model },
      };
    case 'run_resumed':
      return { ...s, status: 'running', runId: e.runId, lastError: undefined };
    case 'turn_started':
      return { ...s, status: 'running', turn: e.turn, draft: emptyDraft(), retrying: undefined };
    case 'text_delta': {
      const d = s.draft ?? emptyDraft();
      return withDraft(s, { text: d.text + e.text, reasoning: d.reasoning, intentIds: d.intentIds, reasoningBlocks: d.reasoningBlocks });
    }
    case 'reasoning_delta': {
      const d = s.draft ?? emptyDraft();
      return withDraft(s, { text: d.text, reasoning: d.reasoning + e.text, intentIds: d.intentIds, reasoningBlocks: d.reasoningBlocks });
    }
    case 'model_reasoning': {
      const d = s.draft ?? emptyDraft();
      return { ...s, draft: { ...d, reasoningBlocks: e.reasoning } };
    }
    case 'usage':
      return { ...s, usage: addUsage(s.usage, e.usage), lastTurnUsage: e.usage };
    case 'model_final':
      return commitDraft(s, e.seq);
    case 'model_error':
      return { ...commitDraft(s, e.seq), lastError: { kind: e.error.kind, message: e.error.message } };
    case 'turn_retry':
      return { ...s, draft: emptyDraft(), retrying: { attempt: e.attempt, delayMs: e.delayMs, message: e.error.message, at: e.time } };
    case 'intent_proposed':
      return proposeIntent(s, e.intent);
    case 'approval_requested':
      return {
        ...withIntent(s, e.intentId, 'awaiting_approval', e.sandbox),
        status: 'waiting_for_approval',
        pendingIntentIds: s.pendingIntentIds.includes(e.intentId) ? s.pendingIntentIds : [...s.pendingIntentIds, e.intentId],
      };
    case 'intent_approved':
      return settleIntent({ ...withIntent(s, e.intentId, 'approved', e.sandbox), grants: addGrant(s, e.intentId, e.scope) }, e.intentId);
    case 'intent_rejected':
      return settleIntent(withIntent(s, e.intentId, 'rejected'), e.intentId);
    case 'intent_started':
      return { ...withIntent(s, e.intentId, 'running'), status: 'executing' };
    case 'observation':
      return observe(s, e);
    case 'context_folded':
      return fold(s, e);
    case 'checkpoint_recorded':
      return { ...s, checkpoints: [...s.checkpoints, { seq: e.seq, step: e.step, kind: e.kind, files: e.files }] };
    case 'rules_used':
      return { ...s, rules: e.paths };
    case 'remote_update':
    case 'hook_ran':
      return s;
    case 'repo_map_built':
      return { ...s, context: { ...s.context, repoMap: e.text, repoMapPending: e.pending === true } };
    case 'run_finished':
      return { ...commitDraft(s, e.seq), status: 'completed', pendingIntentIds: [], retrying: undefined };
    case 'run_failed':
      return { ...commitDraft(s, e.seq), status: 'failed', lastError: e.error, pendingIntentIds: [], retrying: undefined };
    case 'run_cancelled':
      return { ...commitDraft(s, e.seq), status: 'cancelled', pendingIntentIds: [], retrying: undefined };
  }
}

/**
 * The hot path (one call per streamed delta): a literal with every field spelled out is several
 * times cheaper in V8 than `{ ...s, draft }`, and keeps every state object the same shape.
 */
function withDraft(s: ConversationState, draft: Draft): ConversationState {
  return {
    mode: s.mode,
    agent: s.agent,
    status: s.status,
    runId: s.runId,
    turn: s.turn,
    messages: s.messages,
    draft,
    intents: s.intents,
    pendingIntentIds: s.pendingIntentIds,
    grants: s.grants,
    usage: s.usage,
    lastTurnUsage: s.lastTurnUsage,
    lastError: s.lastError,
    retrying: undefined,
    fileVersions: s.fileVersions,
    ledger: s.ledger,
    context: s.context,
    provider: s.provider,
    checkpoints: s.checkpoints,
    rules: s.rules,
    skills: s.skills,
    frames: s.frames,
    childTurns: s.childTurns,
    lastSeq: s.lastSeq,
  };
}

function emptyDraft(): Draft {
  return { text: '', reasoning: '', intentIds: [], reasoningBlocks: undefined };
}

/** The streamed turn becomes a message, committed at `seq`: the task's next model step. */
function commitDraft(s: ConversationState, seq: number): ConversationState {
  const d = s.draft;
  if (!d) return s;
  if (d.text === '' && d.reasoning === '' && d.intentIds.length === 0 && !d.reasoningBlocks) return { ...s, draft: undefined };
  const step = s.ledger.step + 1;
  const message: StateMessage = { type: 'assistant', seq, step, text: d.text, reasoning: d.reasoning, intentIds: d.intentIds };
  if (d.reasoningBlocks) message.reasoningBlocks = d.reasoningBlocks;
  return { ...s, draft: undefined, messages: [...s.messages, message], ledger: { ...s.ledger, step } };
}

function proposeIntent(s: ConversationState, proposed: ToolIntent): ConversationState {
  // How a command runs comes from its approval only.
  const { sandbox: _ignored, ...intent } = proposed;
  const intents = { ...s.intents, [intent.id]: intent };
  const d = s.draft ?? emptyDraft();
  return { ...s, intents, draft: { ...d, intentIds: [...d.intentIds, intent.id] } };
}

/** The intent with a new status; an approval event also sets (or clears) how it runs. */
function withIntent(s: ConversationState, id: string, status: ToolIntent['status'], sandbox?: SandboxProfile): ConversationState {
  const intent = s.intents[id];
  if (!intent) return s;
  const next: ToolIntent = { ...intent, status };
  if (status === 'awaiting_approval' || status === 'approved') {
    if (sandbox === undefined) delete next.sandbox;
    else next.sandbox = sandbox;
  }
  return { ...s, intents: { ...s.intents, [id]: next } };
}

function settleIntent(s: ConversationState, id: string): ConversationState {
  const pendingIntentIds = s.pendingIntentIds.filter((p) => p !== id);
  const status = pendingIntentIds.length > 0 ? 'waiting_for_approval' : 'running';
  return { ...s, pendingIntentIds, status };
}

/** A call's status once its observation is in: the reducer's rule, which the presenter shows too. */
export function observedStatus(before: IntentStatus, observation: Pick<Observation, 'ok'>): IntentStatus {
  return before === 'rejected' ? 'rejected' : observation.ok ? 'done' : 'failed';
}

function observe(s: ConversationState, e: Extract<RuntimeEvent, { type: 'observation' }>): ConversationState {
  const o = e.observation;
  const intent = s.intents[o.intentId];
  const withStatus = intent ? withIntent(s, o.intentId, observedStatus(intent.status, o)) : s;
  return {
    ...withStatus,
    status: s.status === 'executing' ? 'running' : s.status,
    messages: [...s.messages, { type: 'observation', seq: e.seq, observation: o }],
    pendingIntentIds: s.pendingIntentIds.filter((p) => p !== o.intentId),
    fileVersions: o.fileVersions ? { ...s.fileVersions, ...o.fileVersions } : s.fileVersions,
    ledger: ledgerAfter(s.ledger, o, e.seq),
    skills: o.ok && o.facts?.skill ? activateSkill(s.skills, o.facts.skill) : s.skills,
  };
}

/** Sticky: every later projection shows the note instead of the folded steps. */
function fold(s: ConversationState, e: Extract<RuntimeEvent, { type: 'context_folded' }>): ConversationState {
  const folded = { fromSeq: e.fromSeq, toSeq: e.toSeq, steps: e.steps, note: e.note, source: e.source };
  return {
    ...s,
    context: {
      ...s.context,
      folds: [...s.context.folds, folded],
      foldedThrough: Math.max(s.context.foldedThrough, e.toSeq),
      ledgerAtFold: s.ledger,
    },
    usage: e.usage ? addUsage(s.usage, e.usage) : s.usage,
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const cost = a.costUsd === undefined && b.costUsd === undefined ? undefined : (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}
