// A context that never points at nothing (issue 22, item 5): read_file's "unchanged since step N"
// appears only in a request that shows that read whole — a later fold or the last-resort trim puts
// the text back in its place; a note reply that calls a tool or says nothing is not a note; Keel's
// own note keeps the failing tests and the search hits; a window too small for even one turn fails
// before anything is sent; the API's context_overflow folds and retries once.
import assert from 'node:assert/strict';
import {
  Registry,
  Runtime,
  type ModelEvent,
  type ModelRequest,
  type RuntimeEvent,
  type RuntimeOptions,
} from '../../../src/kernel/index.js';
import { fallbackNote } from '../../../src/kernel/context/fold-note.js';
import { projectContext } from '../../../src/kernel/projection.js';
import { replay } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { drain, memoryWorkspace, readNote } from './helpers.js';

/** A source file of about 2,000 tokens, one page of read_file, with a line only it holds. */
const SOURCE = Array.from({ length: 80 }, (_, i) =>
  i === 40 ? 'export const MARKER_LINE = 42;' : `export const value${i} = ${i}; // padding`,
).join('\n');
const notes = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`n${i}.txt`, `note ${i} `.repeat(1_500)]));

function setup(
  script: Script,
  options: Partial<RuntimeOptions> = {},
  capabilities: ConstructorParameters<typeof ScriptedProvider>[1] = {},
) {
  const provider = new ScriptedProvider(script, capabilities);
  let n = 0;
  const runtime = new Runtime({
    provider,
    registry: new Registry().addTool(readFileTool).addTool({ ...readNote, outputBudgetTokens: 40_000 }),
    workspace: memoryWorkspace({ 'src/a.js': SOURCE, ...notes, 'huge.txt': 'h'.repeat(90_000) }),
    contextBudgetTokens: 16_000,
    newId: () => `id${++n}`,
    ...options,
  });
  return { runtime, provider };
}

/** Plays `calls` one per turn (note requests get a fixed note), then finishes. */
function player(calls: [string, unknown][]): Script {
  let turn = 0;
  return (request) => {
    if (request.purpose === 'note') return textTurn('Read src/a.js and the notes.');
    const call = calls[turn++];
    return call ? toolTurn(call[0], call[1], '', `c${turn}`) : textTurn('Done.');
  };
}

const POINTER = /is unchanged since your read of it at step \d+; that result above shows it whole/;

/** Every request that carries a bare pointer also carries the file's text, whole. */
function pointersHonest(requests: readonly ModelRequest[]): void {
  for (const [i, r] of requests.entries()) {
    const results = r.messages.flatMap((m) => (m.role === 'tool_result' ? [m.content] : []));
    if (results.some((c) => POINTER.test(c)))
      assert.ok(
        results.some((c) => c.includes('MARKER_LINE') && c.includes('80 | ') && !c.includes('cut by Keel')),
        `request ${i + 1} points at a read of src/a.js it does not show whole`,
      );
  }
}

const folded = (events: readonly RuntimeEvent[]) => events.filter((e) => e.type === 'context_folded');

describe('kernel: a context that never points at nothing', () => {
  it('a fold that takes away the read a pointer stands for puts the text back in the pointer’s place', async () => {
    const { runtime, provider } = setup(
      player([
        ['read_file', { path: 'src/a.js' }],
        ['read_note', { path: 'n1.txt' }],
        ['read_note', { path: 'n2.txt' }],
        ['read_note', { path: 'n3.txt' }],
        ['read_file', { path: 'src/a.js' }],
        ['read_note', { path: 'n4.txt' }],
        ['read_note', { path: 'n5.txt' }],
      ]),
    );
    await drain(runtime.send('Look at src/a.js and the notes.'));
    assert.equal(runtime.getState().status, 'completed');
    assert.ok(folded(runtime.getEvents()).length > 0, 'a fold happened');
    const pointer = provider.requests.find((r) => r.messages.some((m) => m.role === 'tool_result' && POINTER.test(m.content)));
    assert.ok(pointer, 'read_file answered with a pointer while the read was shown');
    const last = provider.requests.at(-1)!;
    assert.ok(
      last.messages.some(
        (m) =>
          m.role === 'tool_result' &&
          m.content.startsWith('src/a.js is unchanged since your read at step 1, which this request no longer shows whole'),
      ),
      'after the fold the pointer carries the text',
    );
    pointersHonest(provider.requests);
  });

  it('a read the last-resort trim cut is never pointed at as whole', async () => {
    // Recorded with room to spare; then the same history is sent within a small budget, where
    // only the trim can fit it (as when one step alone outgrows the window).
    const { runtime } = setup(
      player([
        ['read_file', { path: 'src/a.js' }],
        ['read_file', { path: 'src/a.js' }],
        ['read_note', { path: 'huge.txt' }],
      ]),
      { contextBudgetTokens: 200_000 },
    );
    await drain(runtime.send('Look at src/a.js, then the huge file.'));
    const state = runtime.getState();
    assert.ok(
      state.messages.some((m) => m.type === 'observation' && POINTER.test(m.observation.content)),
      'a pointer was answered',
    );
    const request = projectContext(state, {
      registry: new Registry().addTool(readFileTool),
      visibility: { trusted: true, hasDiagnostics: false },
      system: 's',
      budgetTokens: 16_000,
    });
    assert.ok(
      request.messages.some((m) => m.role === 'tool_result' && m.content.includes('cut by Keel')),
      'the trim ran',
    );
    pointersHonest([request]);
  });

  it('a note reply that calls a tool, or says nothing, is not taken as the note', async () => {
    for (const reply of [
      toolTurn('read_note', { path: 'n0.txt' }, 'Let me check first.'),
      [{ type: 'final', stopReason: 'stop' }] as ModelEvent[],
    ]) {
      let turn = 0;
      const script: Script = (request) => {
        if (request.purpose === 'note') return reply;
        const i = turn++;
        return i < 6 ? toolTurn('read_note', { path: `n${i}.txt` }, '', `r${i}`) : textTurn('Done.');
      };
      const { runtime } = setup(script, {}, { capabilities: { writesNotes: true } });
      await drain(runtime.send('Read the notes.'));
      const folds = folded(runtime.getEvents());
      assert.ok(folds.length > 0);
      for (const f of folds) assert.equal(f.type === 'context_folded' && f.source, 'fallback', JSON.stringify(f));
    }
  });

  it('Keel’s own note keeps which tests failed and where a search found hits', () => {
    const state = replay([
      { type: 'user_message', seq: 1, runId: 'r', time: 0, text: 'fix it' },
      { type: 'run_started', seq: 2, runId: 'r', time: 0, provider: 'p', model: 'm' },
      { type: 'turn_started', seq: 3, runId: 'r', time: 0, turn: 1 },
      call(4, 'i1', 'run_tests', 'npm test'),
      call(5, 'i2', 'search_files', '/applyDiscount/'),
      { type: 'model_final', seq: 6, runId: 'r', time: 0, stopReason: 'tool_intent' },
      result(7, 'i1', '2 passed, 2 failed', {
        test: { command: 'npm test', passed: 2, failed: 2, ok: false, failing: ['price > rounds half up', 'cart > totals'] },
      }),
      result(8, 'i2', '3 matches in 2 files', { search: { query: 'applyDiscount', paths: ['src/price.js', 'src/cart.js'], matches: 3 } }),
    ] as RuntimeEvent[]);
    const note = fallbackNote(state, {
      reason: 'high_water',
      fromSeq: 2,
      toSeq: 8,
      steps: { first: 1, last: 1 },
      messages: state.messages.slice(1),
      tokensBefore: 0,
    });
    assert.match(note, /failing: `price > rounds half up`, `cart > totals`/);
    assert.match(note, /hits in: `src\/price\.js`, `src\/cart\.js`/);
  });

  it('a window smaller than the system prompt, the tools, the task and one turn fails before anything is sent, with the numbers', async () => {
    // A system prompt of about 1,500 tokens, as a host's would be with its rules.
    const { runtime, provider } = setup(
      player([]),
      { contextBudgetTokens: undefined, system: 'Follow the house rules. '.repeat(250) },
      { capabilities: { contextWindow: 2_048, maxOutputTokens: 1_024 } },
    );
    await drain(runtime.send('Look around.'));
    const state = runtime.getState();
    assert.equal(state.status, 'failed');
    assert.equal(provider.requests.length, 0, 'nothing was sent');
    assert.equal(state.lastError?.kind, 'context_overflow');
    assert.match(
      state.lastError!.message,
      /^The context window \(2048 tokens, 1024 of them kept for the answer\) is too small: the system prompt and tools take \d+ tokens, the task's message \d+, and a turn needs at least 512 more\. Nothing was sent\. Use a window of at least \d+ tokens\.$/,
    );
  });

  it('a context_overflow from the API folds the history and sends the turn once more', async () => {
    let overflowed = 0;
    let turn = 0;
    const overflow: ModelEvent[] = [
      {
        type: 'error',
        error: { kind: 'context_overflow', message: 'prompt is too long: 210000 tokens > 200000 maximum', retryable: false, status: 400 },
      },
    ];
    const script: Script = (request) => {
      if (request.purpose === 'note') return textTurn('Notes read so far.');
      if (turn === 3 && overflowed === 0) {
        overflowed++;
        return overflow;
      }
      const i = turn++;
      return i < 3 ? toolTurn('read_note', { path: `n${i}.txt` }, '', `r${i}`) : textTurn('Done.');
    };
    const { runtime, provider } = setup(script, { contextBudgetTokens: 100_000 });
    await drain(runtime.send('Read the notes.'));
    assert.equal(runtime.getState().status, 'completed', runtime.getState().lastError?.message);
    const types = runtime.getEvents().map((e) => e.type);
    const retry = types.indexOf('turn_retry');
    assert.ok(retry > 0 && types.indexOf('context_folded', retry) > retry, 'folded after the overflow, then sent again');
    assert.ok(provider.requests.at(-1)!.messages.length < provider.requests.at(-2)!.messages.length, 'the retried request is smaller');

    // Twice over the window: the run fails with the API's message, once retried.
    const always: Script = (request) =>
      request.purpose === 'note' ? textTurn('n') : turn++ < 2 ? toolTurn('read_note', { path: 'n0.txt' }, '', `x${turn}`) : overflow;
    turn = 0;
    const again = setup(always, { contextBudgetTokens: 100_000 });
    await drain(again.runtime.send('Read.'));
    assert.equal(again.runtime.getState().status, 'failed');
    assert.match(again.runtime.getState().lastError!.message, /prompt is too long/);
  });
});

function call(seq: number, id: string, tool: string, summary: string): RuntimeEvent {
  return {
    type: 'intent_proposed',
    seq,
    runId: 'r',
    time: 0,
    intent: { id, tool, input: {}, providerRef: id, summary, risk: 'read', paths: [], status: 'proposed' },
  } as RuntimeEvent;
}

function result(seq: number, id: string, summary: string, facts: object): RuntimeEvent {
  return {
    type: 'observation',
    seq,
    runId: 'r',
    time: 0,
    observation: { intentId: id, ok: true, content: summary, summary, facts },
  } as RuntimeEvent;
}
