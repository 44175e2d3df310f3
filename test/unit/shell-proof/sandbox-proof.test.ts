// The round-2 differential proof on a fixed, seeded sample (the full run: npm run proof:sandbox):
// lines generated from the programs' own option lists, descriptor forms, argument files, test
// runs, a workspace inside a bigger repository and run_tests itself. Each line `keel run
// --approve execute` would run unasked runs outside the sandbox under strace (what the
// classifier let through is reported) and inside the OS sandbox, where nothing may change the
// world outside what its profile allows, print a secret or connect anywhere.
import assert from 'node:assert/strict';
import { generateRound2, sampleRound2 } from '../../support/shell-proof/generate-round2.js';
import { proveRound2, summarizeRound2 } from '../../support/shell-proof/prove-round2.js';
import { describeEffects, describeRound2, ROUND2_TIMEOUT_MS, ROUND2_WORKERS } from '../../support/shell-proof/report-round2.js';
import { tracerOrSkip } from '../../support/shell-proof/trace-line.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';

/** Lines of each category in CI's sample (fewer where a category has fewer): under a minute on two shared cores. */
const PER_CATEGORY = 25;

describe('differential proof, round 2: inside and outside the sandbox', function () {
  this.timeout(600_000);

  it('nothing run unasked has an effect inside the sandbox; what the classifier let through is reported', async function () {
    const tracer = tracerOrSkip(this);
    await sandboxOrSkip(this, scratchDir('round2-probe'));
    const started = Date.now();
    const results = await proveRound2(tracer, sampleRound2(generateRound2(), PER_CATEGORY), {
      workers: ROUND2_WORKERS,
      timeoutMs: ROUND2_TIMEOUT_MS,
    });
    console.log(describeRound2(results, Date.now() - started).replace(/^/gm, '      '));
    const s = summarizeRound2(results);
    const inside = results.filter((r) => r.inside.length > 0);
    assert.equal(inside.length, 0, `effects inside the sandbox:\n${inside.map(describeEffects).join('\n')}`);
    assert.ok(s.ranUnasked >= 20, `only ${s.ranUnasked} lines ran unasked; the sample says little`);
    for (const category of ['options', 'redirections', 'test_runs', 'monorepo', 'run_tests'])
      assert.ok((s.byCategory[category]?.ran ?? 0) > 0, `no ${category} line ran unasked`);
  });

  it('sees effects when the same test runs are not sandboxed (the yardstick can fail)', async function () {
    const tracer = tracerOrSkip(this);
    const lines = generateRound2().filter((l) => l.category === 'run_tests' || l.category === 'test_runs');
    const results = await proveRound2(tracer, lines, { workers: ROUND2_WORKERS, timeoutMs: ROUND2_TIMEOUT_MS, insideAs: 'none' });
    assert.ok(summarizeRound2(results).effectsInside > 0, 'without the sandbox the same lines must show effects');
  });
});
