import './dom-env.js';
import assert from 'node:assert/strict';
import type { Meter } from '../../../src/protocol/index.js';
import { click, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const meter: Meter = {
  usedTokens: 60_000,
  windowTokens: 200_000,
  split: { systemTools: 6_000, notes: 4_000, history: 50_000, outputReserve: 32_000 },
  tokens: { input: 20_000, cacheRead: 800_000, cacheWrite: 90_000, output: 7_000 },
  cost: { input: 0.06, cacheRead: 0.24, cacheWrite: 0.3375, output: 0.105 },
  costUsd: 0.7425,
  folds: 2,
};

describe('webview: context meter', () => {
  it('shows context against the window as four parts, with tokens and cost on hover', () => {
    const t = makeApp();
    t.receive(snapshot([], { meter }));
    t.frame();
    const widths = Array.from(t.root.querySelectorAll<HTMLElement>('.meter-seg')).map((s) => s.style.width);
    assert.deepEqual(widths, ['3%', '2%', '25%', '16%'], 'system+tools, notes+ledger, history, output reserve of 200k');
    const toggle = q(t.root, '.meter-toggle');
    assert.equal(toggle.textContent, 'Context 30%', 'labelled: what it measures and how much of the window is used');
    assert.match(toggle.title, /^Context in use: 60k tokens of the model's 200k-token window; \$0\.743 so far\./);
    assert.match(
      toggle.title,
      /instructions and tools 6\.0k · project summary and notes 4\.0k · this conversation 50k · room for the answer 32k/,
    );
  });

  it('says "Context <1%" for a new task in a 1M window, and the tokens when the window is unknown', () => {
    const t = makeApp();
    const fresh: Meter = { ...meter, usedTokens: 100, windowTokens: 1_000_000, costUsd: 0 };
    t.receive(snapshot([], { meter: fresh }));
    t.frame();
    assert.equal(q(t.root, '.meter-label').textContent, 'Context <1%');
    t.receive(deltas()({ type: 'meter/set', meter: { ...fresh, windowTokens: 128_000, usedTokens: 64_000 } }));
    t.frame();
    assert.equal(q(t.root, '.meter-label').textContent, 'Context 50%', 'follows the window the host sends');
    t.receive(deltas(1)({ type: 'meter/set', meter: { ...fresh, windowTokens: 0, usedTokens: 2_400 } }));
    t.frame();
    assert.equal(q(t.root, '.meter-label').textContent, 'Context 2.4k tokens');
  });

  it('sits in the composer toolbar, beside Send, not in a header row of its own', () => {
    const t = makeApp();
    t.receive(snapshot([], { meter }));
    t.frame();
    assert.ok(q(t.root, '[data-testid="meter"]').closest('.composer'), 'in the composer');
  });

  it('opens the details on click: tokens and cost per kind, and Fold now posts context/fold', () => {
    const t = makeApp();
    t.receive(snapshot([], { meter }));
    t.frame();
    const details = q(t.root, '[data-testid="meter-details"]');
    assert.equal(details.hidden, true);
    click(q(t.root, '.meter-toggle'));
    assert.equal(details.hidden, false);
    assert.equal(q(t.root, '.meter-toggle').getAttribute('aria-expanded'), 'true');
    const text = details.textContent ?? '';
    assert.match(text, /project summary and notes \(2 folds\)4\.0k/);
    assert.doesNotMatch(text, /repo map|ledger|Fold now/, 'words a user knows, not Keel internals');
    const fold = q(t.root, '[data-testid="fold-now"]');
    assert.equal(fold.textContent, 'Summarize finished steps');
    assert.ok(fold.classList.contains('secondary'), 'a quiet secondary action, not the bright primary');
    assert.match(text, /Tokens so far: input 20k · cache read 800k · cache write 90k · output 7\.0k/);
    assert.match(text, /Cost so far: input \$0\.060 · cache read \$0\.240 · cache write \$0\.338 · output \$0\.105 = \$0\.743/);
    click(q(t.root, '[data-testid="fold-now"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'context/fold' });
    t.receive(deltas()({ type: 'meter/set', meter: { ...meter, cost: undefined, costUsd: undefined } }));
    t.frame();
    assert.match(details.textContent ?? '', /no known price/);
  });

  it('shows a fold as a collapsed "Folded N steps" item whose note is plain text', () => {
    const t = makeApp();
    const note = '- step 1: read_file `<img src=x onerror=alert(1)>` → ok';
    t.receive(
      snapshot([
        { kind: 'user', id: 'u1', text: 'go' },
        {
          kind: 'fold',
          id: 'f9',
          firstStep: 1,
          lastStep: 6,
          note,
          source: 'model',
          requested: true,
          tokensBefore: 140_000,
          tokensAfter: 80_000,
        },
      ]),
    );
    t.frame();
    const item = q<HTMLDetailsElement>(t.root, '[data-testid="fold-item"]');
    assert.equal(item.tagName, 'DETAILS');
    assert.equal(item.open, false);
    assert.match(
      item.querySelector('summary')!.textContent ?? '',
      /Folded 6 steps \(steps 1–6; 140k → 80k tokens; note by the model; asked for\)/,
    );
    assert.equal(item.querySelector('.fold-note')!.textContent, note);
    assert.equal(item.querySelector('img'), null, 'the note is text, never markup');
  });
});
