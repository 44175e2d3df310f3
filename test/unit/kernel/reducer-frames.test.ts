// The reducer's contract for child frames, checked event by event: a frame's state is what its
// own events fold to (as if they were a task of their own), the task keeps only the totals
// (usage and child turns), and no event changes a state handed out before it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { applyEvent, initialState, replay, type ConversationState, type RuntimeEvent, type Usage } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { CORPUS_DIR } from '../../replay/corpus.js';

const usage = (n: number): Usage => ({ inputTokens: n, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: n / 100 });

/** A task whose root and three sub-agents interleave deltas, usage, turns and folds (a fixed pseudo-random order). */
function interleaved(count: number): RuntimeEvent[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const events: RuntimeEvent[] = [];
  const push = (e: Record<string, unknown>) =>
    events.push({ ...e, seq: events.length + 1, runId: 'r', time: events.length } as RuntimeEvent);
  push({ type: 'user_message', text: 'go' });
  push({ type: 'run_started', provider: 'p', model: 'm' });
  push({ type: 'turn_started', turn: 1 });
  const frames = ['a', 'b', 'c'];
  for (const [i, frame] of frames.entries()) {
    const plan = i === 2 ? { planTaskId: 'p1', parentFrame: 'a' } : {};
    push({
      type: 'frame_started',
      frame,
      parentIntentId: `call-${frame}`,
      depth: i === 2 ? 2 : 1,
      task: frame,
      tools: ['read'],
      maxTurns: 3,
      ...plan,
    });
    push({ type: 'user_message', frame, text: frame });
    push({ type: 'run_started', frame, provider: 'p', model: 'm' });
  }
  for (let i = 0; i < count; i++) {
    const roll = next();
    const at = next() < 0.75 ? { frame: frames[Math.floor(next() * frames.length)] } : {};
    if (roll < 0.6) push({ type: 'text_delta', text: `t${i} `, ...at });
    else if (roll < 0.7) push({ type: 'reasoning_delta', text: `r${i} `, ...at });
    else if (roll < 0.78) push({ type: 'usage', usage: usage(i), ...at });
    else if (roll < 0.85) push({ type: 'turn_started', turn: i, ...at });
    else if (roll < 0.92) push({ type: 'model_final', stopReason: 'stop', ...at });
    else if (roll < 0.96) {
      const fold = { fromSeq: 1, toSeq: events.length, steps: { first: 1, last: 1 }, note: 'n', source: 'fallback' };
      push({
        type: 'context_folded',
        ...fold,
        reason: 'budget',
        tokensBefore: 9,
        tokensAfter: 3,
        ...(next() < 0.5 ? { usage: usage(i) } : {}),
        ...at,
      });
    } else push({ type: 'text_delta', text: 'lost', frame: 'never-started' });
  }
  return events;
}

const plus = (a: Usage, b: Usage | undefined): Usage =>
  b
    ? {
        inputTokens: a.inputTokens + b.inputTokens,
        outputTokens: a.outputTokens + b.outputTokens,
        cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
        cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
        costUsd: (a.costUsd ?? 0) + (b.costUsd ?? 0),
      }
    : a;

/** Folds `events` one at a time, checking the frame contract after each, and that no earlier state changed. */
function foldChecked(events: readonly RuntimeEvent[]): ConversationState {
  const started = new Set<string>();
  let state = initialState();
  let rootOnly = initialState();
  let spent: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let childTurns = 0;
  const handedOut: [ConversationState, string][] = [];
  for (const event of events) {
    state = applyEvent(state, event);
    const frame = event.frame;
    if (frame === undefined) rootOnly = applyEvent(rootOnly, event);
    if (event.type === 'frame_started' && frame !== undefined) started.add(frame);
    if (frame !== undefined && started.has(frame)) {
      if (event.type === 'usage') spent = plus(spent, event.usage);
      if (event.type === 'context_folded') spent = plus(spent, event.usage);
      if (event.type === 'turn_started') childTurns++;
      const own = events.filter((e) => e.frame === frame && e.seq <= event.seq).map((e) => ({ ...e, frame: undefined }));
      assert.deepStrictEqual(state.frames[frame]!.state, replay(own), `frame ${frame} after seq ${event.seq}`);
    }
    assert.equal(state.lastSeq, event.seq);
    assert.equal(state.childTurns, childTurns, `child turns after seq ${event.seq}`);
    const { frames: _f, usage: u, childTurns: _c, lastSeq: _l, ...rest } = state;
    const { frames: _rf, usage: ru, childTurns: _rc, lastSeq: _rl, ...rootRest } = rootOnly;
    assert.deepStrictEqual(rest, rootRest, `the task's own state after seq ${event.seq}`);
    assert.equal(u.inputTokens, ru.inputTokens + spent.inputTokens, `usage after seq ${event.seq}`);
    handedOut.push([state, JSON.stringify(state)]);
  }
  for (const [s, json] of handedOut) assert.equal(JSON.stringify(s), json, 'a later event changed a state handed out earlier');
  return state;
}

describe('reducer: child frames', () => {
  it('folds a generated task with interleaved sub-agents frame by frame, the task keeping only totals', () => {
    const events = interleaved(600);
    const state = foldChecked(events);
    assert.deepEqual(Object.keys(state.frames), ['a', 'b', 'c']);
    assert.equal(state.frames.c!.planTaskId, 'p1');
    assert.equal(state.frames.c!.parentFrame, 'a');
    assert.ok(state.childTurns > 0 && state.frames.a!.state.messages.length > 1, 'the stream exercised turns and commits');
  });

  it('folds the recorded sub-agent task the same way', () => {
    const { events } = loadLog(path.join(CORPUS_DIR, 'failing-tests-subagents.jsonl'));
    const state = foldChecked(events);
    assert.ok(Object.keys(state.frames).length >= 2, 'the recording has a delegate and a plan');
  });
});
