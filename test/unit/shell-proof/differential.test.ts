// The test that matters for the command classifier: every corpus line it calls read_only, and
// that the policy would run unasked under `keel run --approve execute`, is run under the real
// bash in a throwaway sandbox and traced with strace. Any such line that ran a program the
// classifier did not name, wrote or deleted anything, connected anywhere, read outside the
// workspace (or a secret inside it), printed a secret, changed the machine or never ended
// fails the test. The corpus is test/fixtures/shell-corpus (hand-written and generated).
import assert from 'node:assert/strict';
import { loadCorpus } from '../../support/shell-proof/corpus.js';
import { proveCorpus, summarize } from '../../support/shell-proof/prove.js';
import { describeFailure, describeSummary, LINE_TIMEOUT_MS, PROOF_WORKERS } from '../../support/shell-proof/report.js';
import { tracerOrSkip } from '../../support/shell-proof/trace-line.js';

/** Below this many lines run, a passing proof would say little (a classifier that refuses everything passes). */
const MIN_LINES_RUN = 300;
const SHOWN_FAILURES = 40;

describe('command classifier against the real shell (differential proof)', function () {
  // The whole corpus: about a minute on two shared cores; the cap only stops a runaway.
  this.timeout(600_000);

  it('lets nothing it calls read_only run a program it did not name, write, connect, read outside or leak', async function () {
    const tracer = tracerOrSkip(this);
    const started = Date.now();
    const results = await proveCorpus(tracer, loadCorpus(), { workers: PROOF_WORKERS, timeoutMs: LINE_TIMEOUT_MS });
    const s = summarize(results);
    console.log(`      ${describeSummary(results, Date.now() - started)}`);
    const shown = s.failed.slice(0, SHOWN_FAILURES).map(describeFailure);
    const more = s.failed.length > SHOWN_FAILURES ? `\n  …and ${s.failed.length - SHOWN_FAILURES} more` : '';
    assert.equal(s.failed.length, 0, `${s.failed.length} read_only lines did more than read:\n${shown.join('\n')}${more}`);
    assert.ok(s.ran >= MIN_LINES_RUN, `only ${s.ran} lines were run; the proof needs at least ${MIN_LINES_RUN}`);
  });
});
