// The CLI's part of context folding: the --context-window flag for a local model, a line per
// fold, and the one-line breakdown of context and cost printed at the end of a run.
import assert from 'node:assert/strict';
import { initialState, type ConversationState, type ModelRequest, type RuntimeEvent } from '../../../src/kernel/index.js';
import { parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { contextLine, renderEvent } from '../../../src/cli/render.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnKeel } from '../../support/keel-cli.js';
import { scratchDir } from '../../support/scratch.js';

describe('cli: context window and breakdown', () => {
  it('takes --context-window for a model Keel cannot know, and refuses nonsense', () => {
    assert.equal(parseRunArgs(['run', '--context-window', '16384', 'go'], '/w').contextWindow, 16_384);
    assert.equal(parseRunArgs(['run', 'go'], '/w').contextWindow, undefined);
    for (const bad of ['12', 'lots', '3.5', '-4096'])
      assert.throws(
        () => parseRunArgs(['run', `--context-window=${bad}`, 'go'], '/w'),
        (e) => e instanceof UsageError && /--context-window/.test(e.message),
      );
  });

  it('prints a fold as one line and the run as one line of context and cost', () => {
    const lines: string[] = [];
    const printer = { out: (t: string) => lines.push(t), line: (t: string) => lines.push(t) };
    const fold = {
      type: 'context_folded',
      seq: 9,
      runId: 'r',
      time: 0,
      fromSeq: 2,
      toSeq: 8,
      steps: { first: 1, last: 4 },
      note: 'n',
      source: 'fallback',
      reason: 'high_water',
      tokensBefore: 140_000,
      tokensAfter: 61_500,
    } as RuntimeEvent;
    renderEvent(printer, fold, () => undefined);
    assert.deepEqual(lines, ['⤵ folded steps 1–4 into a note (140k → 62k tokens, note by Keel)']);

    const request: ModelRequest = {
      system: 's'.repeat(4000),
      tools: [],
      messages: [
        { role: 'user', text: 'g'.repeat(396) },
        { role: 'user', text: 'n'.repeat(7996) },
        { role: 'tool_result', intentId: 'i', providerRef: 'p', tool: 't', content: 'r'.repeat(39_960), isError: false },
      ],
      stablePrefix: 2,
      maxOutputTokens: 32_000,
    };
    const state: ConversationState = {
      ...initialState(),
      usage: { inputTokens: 12_000, outputTokens: 3_400, cacheReadTokens: 900_000, cacheWriteTokens: 150_000, costUsd: 1.0482 },
      context: {
        folds: [{ fromSeq: 2, toSeq: 8, steps: { first: 1, last: 4 }, note: 'n', source: 'fallback' }],
        foldedThrough: 8,
        ledgerAtFold: undefined,
      },
    };
    assert.equal(
      contextLine(request, state, 200_000),
      'context 13k of 200k tokens (system+tools 1.0k · notes+ledger 2.0k · history 10k · output reserve 32k) · 1 fold · ' +
        'tokens in 12k, cache read 900k, cache write 150k, out 3.4k · $1.05',
    );
  });

  it('--context-window 2048 fails before sending anything, with the numbers, exit 1 (issue 22)', async function () {
    this.timeout(60_000);
    const dir = scratchDir('cli-window');
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const run = await spawnKeel(['run', '--provider', 'scripted', '--context-window', '2048', 'look around'], ws, {
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_CACHE_HOME: path.join(dir, 'cache'),
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /✗ run failed: The context window \(2048 tokens, 1024 of them kept for the answer\) is too small: .* Nothing was sent\./,
    );
    assert.doesNotMatch(run.stdout, /✓ done/);
  });
});
