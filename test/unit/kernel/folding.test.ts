// Folding finished steps into episode notes: at the marks, sticky (the prefix changes once per
// fold), never splitting a call from its result, replayed from the log after a reload, with a
// deterministic note when there is no model to write one.
import assert from 'node:assert/strict';
import {
  HIGH_WATER,
  LOW_WATER,
  Registry,
  Runtime,
  replay,
  requestTokens,
  type ModelEvent,
  type ModelMessage,
  type ModelRequest,
  type RuntimeEvent,
  type RuntimeOptions,
} from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { contentHash, type ToolDefinition } from '../../../src/kernel/index.js';
import { drain, memoryWorkspace, readNote, writeNote } from './helpers.js';

/** read_note reading notes whole and telling the ledger what it read. */
const readWhole: ToolDefinition<{ path: string }> = {
  ...readNote,
  outputBudgetTokens: 5_000,
  async execute(input, ctx) {
    const result = await readNote.execute(input, ctx);
    const lines = result.content.split('\n').length;
    return { ...result, facts: { read: { path: input.path, hash: contentHash(result.content), from: 1, to: lines, total: lines } } };
  },
};

const BUDGET = 16_000;
const GOAL = 'Read every note and sum them up.';
/** Ten notes of about 3,000 tokens each: the budget holds about four. */
const files = (): Record<string, string> =>
  Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`n${i}.txt`, `${`note ${i} `.repeat(1_500)}`]));

function setup(script: Script, extra: Partial<RuntimeOptions> & { writesNotes?: boolean } = {}) {
  const { writesNotes, ...options } = extra;
  const provider = new ScriptedProvider(script, writesNotes ? { capabilities: { writesNotes } } : {});
  let n = 0;
  let t = 1_000;
  const workspace = memoryWorkspace(files());
  const runtime = new Runtime({
    provider,
    registry: new Registry().addTool(readWhole).addTool(writeNote),
    workspace,
    contextBudgetTokens: BUDGET,
    newId: () => `id${++n}`,
    now: () => ++t,
    ...options,
  });
  return { runtime, provider, workspace };
}

/** Reads note i at turn i (two at a time with `pairs`), then finishes. Note requests get `note`. */
function reader(turns: number, pairs = false, note = 'The notes count up; n0–n3 read.'): Script {
  let turn = 0;
  return (request) => {
    if (request.purpose === 'note') return textTurn(note);
    const i = turn++;
    if (i >= turns) return textTurn('All read.');
    if (!pairs) return toolTurn('read_note', { path: `n${i % 10}.txt` }, '', `c${i}`);
    return [
      { type: 'tool_intent', providerRef: `a${i}`, tool: 'read_note', input: { path: `n${(2 * i) % 10}.txt` } },
      { type: 'tool_intent', providerRef: `b${i}`, tool: 'read_note', input: { path: `n${(2 * i + 1) % 10}.txt` } },
      { type: 'final', stopReason: 'tool_intent' },
    ] as ModelEvent[];
  };
}

const folds = (events: readonly RuntimeEvent[]) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: 'context_folded' }> => e.type === 'context_folded');
const turnsOf = (p: ScriptedProvider) => p.requests.filter((r) => r.purpose !== 'note');
const sameList = (a: readonly ModelMessage[], b: readonly ModelMessage[]) => JSON.stringify(a) === JSON.stringify(b);

describe('kernel: folding context into episode notes', () => {
  it('folds at the high-water mark, down to the low-water mark, and sends nothing above the high mark', async () => {
    const { runtime, provider } = setup(reader(12));
    await drain(runtime.send(GOAL));
    const made = folds(runtime.getEvents());
    assert.ok(made.length >= 2, `several folds in twelve big reads (${made.length})`);
    for (const f of made) {
      assert.ok(f.tokensBefore > HIGH_WATER * BUDGET, `folded only past the high-water mark (${f.tokensBefore})`);
      assert.ok(f.tokensAfter <= LOW_WATER * BUDGET, `folded down to the low-water mark (${f.tokensAfter})`);
      assert.equal(f.reason, 'high_water');
    }
    for (const r of turnsOf(provider)) assert.ok(requestTokens(r) <= HIGH_WATER * BUDGET, `a request of ${requestTokens(r)} tokens`);
    assert.equal(runtime.getState().status, 'completed');
  });

  it('does not fold while the request stays under the high-water mark', async () => {
    const { runtime } = setup(reader(2));
    await drain(runtime.send(GOAL));
    assert.equal(folds(runtime.getEvents()).length, 0);
  });

  it('is sticky: between folds each request extends the previous one; the goal never changes', async () => {
    const { runtime, provider } = setup(reader(9));
    await drain(runtime.send(GOAL));
    const requests = turnsOf(provider);
    let breaks = 0;
    for (let i = 1; i < requests.length; i++) {
      const [before, now] = [requests[i - 1]!, requests[i]!];
      assert.deepEqual(now.messages[0], { role: 'user', text: GOAL }, 'the goal is byte-identical, with nothing appended');
      assert.equal(now.system, before.system);
      assert.deepEqual(now.tools, before.tools);
      if (!sameList(now.messages.slice(0, before.messages.length), before.messages)) breaks++;
    }
    assert.equal(breaks, folds(runtime.getEvents()).length, 'the prefix changes exactly once per fold');
    const last = requests.at(-1)!;
    assert.equal(last.stablePrefix, 2, 'goal + notes block');
    const block = last.messages[1] as Extract<ModelMessage, { role: 'user' }>;
    for (const f of folds(runtime.getEvents())) assert.ok(block.text.includes(f.note), 'every note is in the block');
    assert.match(block.text, /Task ledger at step \d+:\n- Read: `n0\.txt`/);
  });

  it('never separates a call from its result, and keeps the latest step live', async () => {
    const { runtime, provider } = setup(reader(5, true));
    await drain(runtime.send(GOAL));
    assert.ok(folds(runtime.getEvents()).length >= 1);
    const requests = turnsOf(provider);
    for (const r of requests) {
      const calls = r.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((c) => c.intentId) : []));
      const results = r.messages.flatMap((m) => (m.role === 'tool_result' ? [m.intentId] : []));
      assert.deepEqual(calls, results, 'calls and results are kept or folded together');
    }
    const events = runtime.getEvents();
    for (const f of folds(events)) {
      const latest = events
        .slice(0, events.indexOf(f))
        .filter((e) => e.type === 'model_final')
        .at(-1)!;
      assert.ok(f.toSeq < latest.seq, 'the latest step (the one the next turn answers) is never folded');
    }
  });

  it('survives a reload: the log replays the fold, and the resumed task sends the same prefix', async () => {
    const steps = reader(6);
    let reads = 0;
    const script: Script = (request, i) => {
      if (request.purpose !== 'note' && reads++ === 6) return toolTurn('write_note', { path: 'sum.txt', text: 'sum' }, '', 'w1');
      return (steps as (r: ModelRequest, i: number) => ModelEvent[])(request, i);
    };
    const first = setup(script);
    for await (const o of first.runtime.send(GOAL)) if (o.kind === 'event' && o.event.type === 'approval_requested') break;
    await first.runtime.idle();
    const events = first.runtime.getEvents();
    const cut = events.findIndex((e) => e.type === 'approval_requested');
    const log = events.slice(0, cut + 1);
    assert.ok(folds(log).length >= 1, 'the task folded before the reload');
    const lastBefore = turnsOf(first.provider).at(-1)!;

    const reloaded = replay(log);
    assert.deepEqual(reloaded.context, first.runtime.getState().context, 'the reducer rebuilds the folds and the ledger snapshot');
    assert.deepEqual(
      reloaded.context.folds.map((f) => f.note),
      folds(log).map((f) => f.note),
    );
    const second = setup(reader(0), { events: log });
    assert.deepEqual(
      second.runtime.preview().messages.slice(0, 2),
      lastBefore.messages.slice(0, 2),
      'same stable prefix from the log alone',
    );
    await drain(second.runtime.resume(), (id) => second.runtime.approve(id));
    const firstAfter = turnsOf(second.provider)[0]!;
    assert.equal(firstAfter.system, lastBefore.system);
    assert.deepEqual(
      firstAfter.messages.slice(0, lastBefore.messages.length),
      lastBefore.messages,
      'the resumed request extends the last one',
    );
    assert.equal(second.runtime.getState().status, 'completed');
  });

  it('writes the note with the model when it can, counting what that cost', async () => {
    const { runtime, provider } = setup(reader(9, false, 'Learned: notes hold counters.'), { writesNotes: true });
    await drain(runtime.send(GOAL));
    const made = folds(runtime.getEvents());
    assert.ok(made.length >= 1);
    assert.ok(made.every((f) => f.source === 'model' && f.note.startsWith('Learned: notes hold counters.')));
    const asked = provider.requests.filter((r) => r.purpose === 'note');
    assert.equal(asked.length, made.length, 'one note request per fold');
    const note = asked[0]!;
    const turnBefore = provider.requests[provider.requests.indexOf(note) - 1]!;
    assert.deepEqual(
      note.messages.slice(0, turnBefore.messages.length),
      turnBefore.messages.slice(0, turnBefore.messages.length),
      'it extends the turn requests (cache)',
    );
    assert.match((note.messages.at(-1) as { text: string }).text, /episode note/);
  });

  it("counts the note request's usage in the task's usage", async () => {
    const usage = { inputTokens: 100, outputTokens: 50, cacheReadTokens: 7_000, cacheWriteTokens: 0, costUsd: 0.01 };
    const base = reader(9);
    const script: Script = (request, i) =>
      request.purpose === 'note'
        ? [
            { type: 'text_delta', text: 'A note.' },
            { type: 'usage', usage },
            { type: 'final', stopReason: 'stop' },
          ]
        : (base as (r: ModelRequest, i: number) => ModelEvent[])(request, i);
    const { runtime } = setup(script, { writesNotes: true });
    await drain(runtime.send(GOAL));
    const made = folds(runtime.getEvents());
    assert.deepEqual(made[0]!.usage, usage);
    assert.equal(runtime.getState().usage.cacheReadTokens, 7_000 * made.length);
    assert.equal(runtime.getState().usage.costUsd?.toFixed(2), (0.01 * made.length).toFixed(2));
  });

  it('falls back to a deterministic note without a model, or when the note request fails', async () => {
    const scripted = setup(reader(9));
    await drain(scripted.runtime.send(GOAL));
    const plain = folds(scripted.runtime.getEvents())[0]!;
    assert.equal(plain.source, 'fallback');
    assert.match(plain.note, /^- step 1: read_note `n0\.txt` → ok: `note 0 note 0/m, 'one line per call: tool, input, outcome');
    assert.equal(plain.note.split('\n').length, plain.steps.last - plain.steps.first + 1);

    const reads = reader(9) as (r: ModelRequest, i: number) => ModelEvent[];
    const failing: Script = (request, i) =>
      request.purpose === 'note' ? [{ type: 'error', error: { kind: 'overloaded', message: 'busy', retryable: true } }] : reads(request, i);
    const failed = setup(failing, { writesNotes: true });
    await drain(failed.runtime.send(GOAL));
    const made = folds(failed.runtime.getEvents());
    assert.ok(made.length >= 1 && made.every((f) => f.source === 'fallback'));
    assert.equal(failed.runtime.getState().status, 'completed', 'a failed note request does not fail the run');
  });

  it('keeps the user message of a folded step word for word', async () => {
    const { runtime } = setup(reader(3));
    await drain(runtime.send(GOAL));
    // A follow-up turn: the second user message becomes foldable history once later steps exist.
    let turn = 0;
    const followUp: Script = () => (turn++ < 1 ? toolTurn('read_note', { path: 'n5.txt' }, '', 'x1') : textTurn('ok'));
    const more = setup(followUp, { events: runtime.getEvents() });
    await drain(more.runtime.send('Also check n5, and keep "quotes" as they are.'));
    assert.equal(await more.runtime.fold(), 'folded');
    const note = folds(more.runtime.getEvents()).at(-1)!.note;
    assert.ok(note.includes(JSON.stringify('Also check n5, and keep "quotes" as they are.')), note);
  });

  it('folds on request: at once when idle, at the next prepare during a run', async () => {
    const idle = setup(reader(3));
    await drain(idle.runtime.send(GOAL));
    assert.equal(await idle.runtime.fold(), 'folded');
    const f = folds(idle.runtime.getEvents())[0]!;
    assert.equal(f.reason, 'requested');
    assert.deepEqual(f.steps, { first: 1, last: 3 }, 'everything but the latest step (the answer)');
    assert.equal(await idle.runtime.fold(), 'nothing', 'nothing left to fold');

    let asked: Promise<unknown> | undefined;
    const four = reader(4) as (r: ModelRequest, i: number) => ModelEvent[];
    const during = setup((request, i) => {
      if (i === 2 && !asked) asked = during.runtime.fold();
      return four(request, i);
    });
    await drain(during.runtime.send(GOAL));
    assert.equal(await asked, 'queued');
    const g = folds(during.runtime.getEvents());
    assert.equal(g.length, 1);
    assert.equal(g[0]!.reason, 'requested');
    const foldAt = during.runtime.getEvents().indexOf(g[0]!);
    const turnAt = during.runtime.getEvents().findIndex((e) => e.type === 'turn_started' && e.turn === 4);
    assert.ok(foldAt < turnAt + 2 && foldAt > turnAt, 'the fold comes at the prepare of the next turn');
  });

  it('logs no fold when the run is cancelled while the note is written', async () => {
    let cancelled = false;
    const base = reader(9);
    const { runtime } = setup(
      (request, i) => {
        if (request.purpose !== 'note') return (base as (r: ModelRequest, i: number) => ModelEvent[])(request, i);
        return (async function* () {
          yield { type: 'text_delta', text: 'half a note' } as ModelEvent;
          cancelled = true;
          runtime.cancel();
          yield { type: 'final', stopReason: 'stop' } as ModelEvent;
        })();
      },
      { writesNotes: true },
    );
    await drain(runtime.send(GOAL));
    assert.ok(cancelled);
    assert.equal(folds(runtime.getEvents()).length, 0);
    assert.equal(runtime.getState().status, 'cancelled');
  });
});
