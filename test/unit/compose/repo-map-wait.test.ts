// The first request never waits long for the repo map: a map not ready in time is logged
// pending, the prefix says it comes later, and the first later turn that finds it built shows it
// (logged again, reason 'late'). Through composeRuntime, a map that never comes holds the first
// request up only for the wait the host allows: under a second and a half, even when a file's
// parse hangs (the hanging parse worker).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { TreeSitterIntel } from '../../../src/codeintel/tree-sitter-intel.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { scratchDir } from '../../support/scratch.js';
import { composeRuntime } from '../../../src/compose/index.js';
import { waitingRepoMap } from '../../../src/compose/repo-map-wait.js';
import { REPO_MAP_PENDING } from '../../../src/kernel/context/context-block.js';
import { type CodeIntel, type RepoMap, Registry, Runtime, type RuntimeEvent } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { drain, memoryWorkspace, readNote } from '../kernel/helpers.js';

const MAP: RepoMap = { text: 'Repo map: 1 of the 1 source files\nsrc/a.ts\n  1 export function a() {}', files: 1, totalFiles: 1 };

/** A code index whose map is ready only when `finish` is called (never, if it is not). */
function slowIntel(): { intel: CodeIntel; finish(): void; asked: number } {
  let finish = () => {};
  const state = { asked: 0 };
  const ready = new Promise<RepoMap>((resolve) => {
    finish = () => resolve(MAP);
  });
  const none = async () => ({ engine: 'tree-sitter' as const, items: [] });
  const intel: CodeIntel = {
    findSymbols: none,
    definitions: none,
    references: none,
    outline: none,
    hover: none,
    repoMap: () => {
      state.asked++;
      return ready;
    },
  };
  return {
    intel,
    finish: () => finish(),
    get asked() {
      return state.asked;
    },
  };
}

const mapsOf = (events: readonly RuntimeEvent[]) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: 'repo_map_built' }> => e.type === 'repo_map_built');
const blockOf = (r: ScriptedProvider['requests'][number]) => JSON.stringify(r.messages[1] ?? '');

describe('compose: the repo map is waited for at most a bounded time', function () {
  this.timeout(20_000);

  it('sends the first request without a map not ready in time, says so, and shows the map the turn it is ready', async () => {
    const slow = slowIntel();
    let turn = 0;
    const provider = new ScriptedProvider(() => {
      turn++;
      if (turn === 1) slow.finish(); // the index finishes while the model answers the first request
      return turn <= 2 ? toolTurn('read_note', { path: 'n.txt' }, '', `c${turn}`) : textTurn('Done.');
    });
    const runtime = new Runtime({
      provider,
      registry: new Registry().addTool(readNote),
      workspace: memoryWorkspace({ 'n.txt': 'note' }),
      contextBudgetTokens: 16_000,
      repoMap: waitingRepoMap(slow.intel, 50),
    });
    await drain(runtime.send('Read the note.'));
    const [first, second, third] = provider.requests;
    assert.ok(blockOf(first!).includes(REPO_MAP_PENDING), blockOf(first!));
    assert.ok(!blockOf(first!).includes('export function a'));
    assert.ok(blockOf(second!).includes('export function a'), blockOf(second!));
    assert.equal(blockOf(third!), blockOf(second!), 'then the prefix stays the same');
    assert.deepEqual(
      mapsOf(runtime.getEvents()).map((e) => [e.reason, e.pending ?? false, e.files]),
      [
        ['start', true, 0],
        ['late', false, 1],
      ],
    );
    assert.equal(slow.asked, 1, 'the build started once and was waited on, not started again');
  });

  it('through composeRuntime: a map that never comes holds the first request up no longer than the wait', async () => {
    const slow = slowIntel();
    const provider = new ScriptedProvider([textTurn('Done.')]);
    const workspace = { ...memoryWorkspace({}), codeIntel: slow.intel };
    const runtime = composeRuntime({
      provider,
      settings: { maxTurns: 5, autoApprove: [], commandsAllow: [], commandsDeny: [] },
      workspace,
      trusted: () => true,
      interactive: false,
    });
    const started = performance.now();
    await drain(runtime.send('hello'));
    assert.equal(provider.requests.length, 1);
    assert.ok(JSON.stringify(provider.requests[0]!.messages).includes(REPO_MAP_PENDING));
    // A cold build never holds a task's start: the wait is a few hundred ms, not seconds.
    assert.ok(performance.now() - started < 1500, `the first request waited ${Math.round(performance.now() - started)} ms`);
  });

  it('through composeRuntime on the real index: a parse that hangs does not hold the first request', async () => {
    const root = scratchDir('repo-map-hang');
    writeFileSync(path.join(root, 'hang-a.ts'), 'export const a = 1;\n');
    // Every file handed to the hanging worker: the build ends only when its watchdog gives up.
    const intel = new TreeSitterIntel(await createNodeWorkspace(root, { rgPath: null }), {
      parseWorkers: 1,
      parseWorkerScript: path.resolve(__dirname, '../../support/parse-workers/hanging.ts'),
      mainThreadFileMs: 0,
    });
    const provider = new ScriptedProvider([textTurn('Done.')]);
    const runtime = composeRuntime({
      provider,
      settings: { maxTurns: 5, autoApprove: [], commandsAllow: [], commandsDeny: [] },
      workspace: { ...memoryWorkspace({}), codeIntel: intel },
      trusted: () => true,
      interactive: false,
    });
    const started = performance.now();
    await drain(runtime.send('hello'));
    assert.ok(JSON.stringify(provider.requests[0]!.messages).includes(REPO_MAP_PENDING));
    assert.ok(performance.now() - started < 1500, `the first request waited ${Math.round(performance.now() - started)} ms`);
    await intel.index.refresh(); // let the watchdog end the worker before the next test
  });
});
