// The repo map in the stable prefix: built when the task first runs, shown after the goal, the
// same bytes on every request until a fold, rebuilt at the fold (and only then), logged so a
// reload shows the same prefix, and never given to a sub-agent.
import assert from 'node:assert/strict';
import { Registry, Runtime, replay, type ModelMessage, type RepoMapBuilder, type RuntimeEvent } from '../../../src/kernel/index.js';
import { projectContext } from '../../../src/kernel/projection.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { drain, memoryWorkspace, readNote } from './helpers.js';

const BUDGET = 16_000;
const GOAL = 'Read the notes.';

/** A builder whose map names how many times it was asked, and what the task focuses on. */
function countingBuilder(): { builder: RepoMapBuilder; calls: number[] } {
  const calls: number[] = [];
  const builder: RepoMapBuilder = async (state, budget) => {
    calls.push(budget);
    const words = state.messages.flatMap((m) => (m.type === 'user' ? [m.text] : [])).join(' ');
    return { text: `map #${calls.length} (${words.length} chars of focus)`, files: 1, totalFiles: 3 };
  };
  return { builder, calls };
}

function reader(turns: number): Script {
  let turn = 0;
  return (request) => {
    if (request.purpose === 'note') return textTurn('Notes read so far.');
    const i = turn++;
    return i >= turns ? textTurn('Done.') : toolTurn('read_note', { path: `n${i % 10}.txt` }, '', `c${i}`);
  };
}

function setup(script: Script, repoMap: RepoMapBuilder | undefined, events: readonly RuntimeEvent[] = []) {
  const provider = new ScriptedProvider(script);
  const files = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`n${i}.txt`, `${`note ${i} `.repeat(1_500)}`]));
  let n = 0;
  const runtime = new Runtime({
    provider,
    registry: new Registry().addTool({ ...readNote, outputBudgetTokens: 5_000 }),
    workspace: memoryWorkspace(files),
    contextBudgetTokens: BUDGET,
    newId: () => `id${++n}`,
    events,
    ...(repoMap ? { repoMap } : {}),
  });
  return { runtime, provider };
}

const blockOf = (messages: readonly ModelMessage[]) => (messages[1] as Extract<ModelMessage, { role: 'user' }> | undefined)?.text ?? '';
const turns = (p: ScriptedProvider) => p.requests.filter((r) => r.purpose !== 'note');

describe('kernel: the repo map in the stable prefix', () => {
  it('is built once when the task starts and shown after the goal, byte-identical on every request', async () => {
    const { builder, calls } = countingBuilder();
    const { runtime, provider } = setup(reader(2), builder);
    await drain(runtime.send(GOAL));
    assert.equal(calls.length, 1, 'built once: no fold happened');
    assert.equal(calls[0], BUDGET / 32, 'a thirty-second of the input budget');
    const requests = turns(provider);
    assert.ok(requests.length >= 3);
    for (const r of requests) {
      assert.deepEqual(r.messages[0], { role: 'user', text: GOAL });
      assert.match(blockOf(r.messages), /^\[A map of the workspace[^\n]*\]\nmap #1 /);
      assert.equal(r.stablePrefix, 2, 'goal + map block');
      assert.equal(blockOf(r.messages), blockOf(requests[0]!.messages));
    }
  });

  it('is rebuilt at a fold and only then: the prefix changes once per fold', async () => {
    const { builder, calls } = countingBuilder();
    const { runtime, provider } = setup(reader(12), builder);
    await drain(runtime.send(GOAL));
    const events = runtime.getEvents();
    const folds = events.filter((e) => e.type === 'context_folded').length;
    const maps = events.filter((e): e is Extract<RuntimeEvent, { type: 'repo_map_built' }> => e.type === 'repo_map_built');
    assert.ok(folds >= 2, `twelve big reads fold twice or more (${folds})`);
    assert.equal(calls.length, 1 + folds, 'asked at the start and at each fold');
    assert.deepEqual(
      maps.map((m) => m.reason),
      ['start', ...Array(folds).fill('fold')],
    );
    // Each map event comes right before its fold, so the fold's token count includes it.
    for (const m of maps.slice(1)) assert.equal(events[events.indexOf(m) + 1]?.type, 'context_folded');
    const blocks = new Set(turns(provider).map((r) => blockOf(r.messages)));
    assert.equal(blocks.size, 1 + folds, 'one prefix per fold');
    const last = turns(provider).at(-1)!;
    assert.match(blockOf(last.messages), new RegExp(`map #${1 + folds} [\\s\\S]*\\(folded\\)`), 'the map, then the notes');
  });

  it('comes back from the log: a reloaded task shows the same prefix without building again', async () => {
    const { builder } = countingBuilder();
    const first = setup(reader(1), builder);
    await drain(first.runtime.send(GOAL));
    const again = countingBuilder();
    const reloaded = setup(reader(0), again.builder, first.runtime.getEvents());
    assert.equal(blockOf(reloaded.runtime.preview().messages), blockOf(turns(first.provider).at(-1)!.messages));
    assert.equal(again.calls.length, 0);
    assert.equal(replay(first.runtime.getEvents()).context.repoMap, 'map #1 (15 chars of focus)');
  });

  it('logs an empty map when there is nothing to map (asked once, not every turn), and keeps no block', async () => {
    let asked = 0;
    const { runtime, provider } = setup(reader(2), async () => {
      asked++;
      return undefined;
    });
    await drain(runtime.send(GOAL));
    assert.equal(asked, 1);
    assert.ok(turns(provider).every((r) => r.stablePrefix === 1 && r.messages[1]?.role !== 'user'));
  });

  it('survives a builder that throws: the task runs on without a map', async () => {
    const { runtime } = setup(reader(1), async () => {
      throw new Error('index broke');
    });
    await drain(runtime.send(GOAL));
    assert.equal(runtime.getState().status, 'completed');
    assert.equal(runtime.getState().context.repoMap, '');
  });

  it('is not built without a builder, and projection shows no block for an empty map', () => {
    const state = replay([]);
    const request = projectContext(
      { ...state, messages: [{ type: 'user', seq: 1, text: GOAL }], context: { ...state.context, repoMap: '' } },
      { registry: new Registry(), visibility: { trusted: true, hasDiagnostics: false }, system: 's', budgetTokens: BUDGET },
    );
    assert.equal(request.stablePrefix, 1);
    assert.equal(request.messages.length, 1);
  });
});
