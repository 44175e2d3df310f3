// One AbortSignal lives for a whole run. Every turn's request, retry wait and tool run may
// listen to it, but each must take its listener off when it is done: a 30-turn run through
// each real SDK (with a retried turn, commands and searches) ends with no listener left on
// the run's signal and no MaxListenersExceededWarning.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { Runtime, type ModelProvider } from '../../../src/kernel/index.js';
import { composeRegistry } from '../../../src/compose/index.js';
import { anthropicSse } from '../../support/anthropic-wire.js';
import { startModelServer, type ModelServer, type Reply } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { openaiSse } from '../../support/openai-wire.js';
import { tempWorkspace, type TempWorkspace } from '../tools/helpers.js';
import { VENDORS } from './vendors.js';

const TURNS = 30;

/** Turn n: a command, a search or a read; the last turn answers. */
function turnAt(n: number): WireTurn {
  if (n === TURNS - 1) return { text: ['All done.'] };
  const calls = [
    { name: 'run_command', input: { command: 'echo turn' } },
    { name: 'search_files', input: { query: 'hello' } },
    { name: 'read_file', input: { path: 'a.txt' } },
  ];
  return { toolCalls: [calls[n % calls.length]!] };
}

/** Records how many abort listeners the run's signal holds when each turn starts. */
function counting(provider: ModelProvider, seen: { signal?: AbortSignal; counts: number[] }): ModelProvider {
  return {
    name: provider.name,
    model: provider.model,
    capabilities: provider.capabilities,
    stream(request, signal) {
      seen.signal = signal;
      seen.counts.push(getEventListeners(signal, 'abort').length);
      return provider.stream(request, signal);
    },
  };
}

for (const vendor of VENDORS) {
  describe(`${vendor.name} provider: abort listeners over a long run`, function () {
    this.timeout(60_000);
    let server: ModelServer | undefined;
    let t: TempWorkspace;
    beforeEach(async () => {
      t = await tempWorkspace({ 'a.txt': 'hello\n' });
    });
    afterEach(async () => {
      await server?.close();
      await t.cleanup();
    });

    it(`a ${TURNS}-turn run leaves no listener on the run's signal and prints no warning`, async () => {
      const wire = (turn: WireTurn) => (vendor.name === 'openai' ? openaiSse(turn) : anthropicSse(turn));
      // Request 5 is cut mid-stream, so one turn is retried (a wait, then a second request).
      server = await startModelServer((_req, i): Reply => {
        const n = i <= 5 ? i : i - 1;
        const body = wire(turnAt(n));
        return i === 5 ? { type: 'stream', body, cutAt: Math.floor(body.length / 2) } : { type: 'stream', body };
      });
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on('warning', onWarning);
      try {
        const seen: { signal?: AbortSignal; counts: number[] } = { counts: [] };
        const runtime = new Runtime({
          provider: counting(vendor.provider(server), seen),
          registry: composeRegistry(t.ws),
          workspace: t.ws,
          policy: { decide: () => ({ type: 'allow', reason: 'this test allows everything' }) },
          maxTurns: TURNS + 5,
        });
        for await (const _ of runtime.send('work for a while')) void _;
        // Warnings are emitted on a later tick.
        await new Promise((r) => setImmediate(r));

        const state = runtime.getState();
        assert.equal(state.status, 'completed', JSON.stringify(state.lastError));
        assert.equal(state.turn, TURNS);
        assert.equal(runtime.getEvents().filter((e) => e.type === 'turn_retry').length, 1, 'one turn was retried');
        assert.ok(runtime.getEvents().some((e) => e.type === 'observation' && e.observation.ok && /turn/.test(e.observation.content)));
        assert.deepEqual(seen.counts, new Array(TURNS).fill(0), 'listeners on the run signal at the start of each turn');
        assert.equal(getEventListeners(seen.signal!, 'abort').length, 0, 'none left at the end');
        assert.deepEqual(
          warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
          [],
        );
      } finally {
        process.off('warning', onWarning);
      }
    });
  });
}
