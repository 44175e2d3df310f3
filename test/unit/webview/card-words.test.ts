// Issue 21 #8 and #10: cards say what will run and what happened in a person's words. The real
// command is the card's body (not "detected test command" over a sentence with backticks), a
// file change shows its file once (no "(1 block)" then "Path:"), a call stopped while it waited
// is a neutral "Cancelled", a rejection is said once and not in red, and tests that ran and
// failed get a failure mark, not ✓.
import './dom-env.js';
import assert from 'node:assert/strict';
import { allTools } from '../../../src/tools/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { EventFactory } from '../presenter/events.js';
import { makeApp, q } from './dom-env.js';
import { snapshot } from './fixtures.js';

type EventInput = Parameters<EventFactory['out']>[0];

/** The card the real presenter makes from these events, rendered by the real view. */
function cardFrom(events: (f: EventFactory) => EventInput[]): HTMLElement {
  const f = new EventFactory();
  const presenter = new Presenter({ post: () => undefined, kernel: () => f.state });
  // As the session does: the presenter learns what the task's tools are (their declared kinds).
  presenter.setToolKinds((name) => allTools.find((t) => t.name === name)?.kind);
  for (const input of events(f)) presenter.handle(f.out(input));
  const t = makeApp();
  t.receive(snapshot(presenter.items(), { status: 'waiting_for_approval' }));
  t.frame();
  return q(t.root, '[data-testid="intent-card"]');
}

const runTests = (f: EventFactory): EventInput => ({
  type: 'intent_proposed',
  intent: { ...f.intent('i1'), tool: 'run_tests', input: {}, summary: "the project's tests" },
});

describe('webview: cards in a person’s words (issue 21 #8)', () => {
  it('shows the detected test command whole as the body, under "Run the tests"', () => {
    const card = cardFrom((f) => [
      runTests(f),
      {
        type: 'approval_requested',
        intentId: 'i1',
        reason: 'Detected from the project: package.json scripts.test is "node --test test/".',
        command: 'npm test',
      },
    ]);
    assert.equal(q(card, '.intent-tool').textContent, 'Run the tests');
    assert.equal(q(card, '[data-testid="intent-command"]').textContent, 'npm test');
    assert.equal(q(card, '[data-testid="intent-command"]').hidden, false);
    const reason = q(card, '.intent-reason').textContent ?? '';
    assert.match(reason, /^Detected from the project: package\.json scripts\.test/);
    assert.doesNotMatch(card.textContent ?? '', /detected test command|`|run_tests/);
  });

  it('names an edit by its file, once', () => {
    const card = cardFrom((f) => [
      {
        type: 'intent_proposed',
        intent: {
          ...f.intent('i1'),
          tool: 'edit_file',
          input: { path: 'src/price.js', edits: [] },
          summary: 'src/price.js (1 block)',
          risk: 'write',
          paths: ['src/price.js'],
        },
      },
      { type: 'approval_requested', intentId: 'i1', reason: 'Changes src/price.js.' },
    ]);
    assert.equal(q(card, '.intent-tool').textContent, 'Edit a file');
    assert.equal(q(card, '.intent-summary').textContent, 'src/price.js');
    assert.doesNotMatch(card.textContent ?? '', /block|Path:/);
  });

  it('names an MCP tool with its server', () => {
    const card = cardFrom((f) => [
      { type: 'intent_proposed', intent: { ...f.intent('i1'), tool: 'mcp__everything__echo', summary: 'everything: echo' } },
    ]);
    assert.equal(q(card, '.intent-tool').textContent, 'echo (MCP: everything)');
  });

  it('names a web fetch and shows the exact URL it asks to request', () => {
    const url = 'https://github.com/acme/shop/issues/12';
    const card = cardFrom((f) => [
      {
        type: 'intent_proposed',
        intent: { ...f.intent('i1'), tool: 'web_fetch', input: { url }, summary: url, risk: 'network', paths: [] },
      },
      { type: 'approval_requested', intentId: 'i1', reason: 'Uses the network.' },
    ]);
    assert.equal(q(card, '.intent-tool').textContent, 'Fetch a web page');
    assert.equal(q(card, '.intent-summary').textContent, url);
    assert.doesNotMatch(card.textContent ?? '', /web_fetch/);
  });
});

describe('webview: card states (issue 21 #10)', () => {
  const status = (card: HTMLElement) => q(card, '.intent-status');

  it('a call stopped while it waited is "Cancelled", neutral, with no failure result', () => {
    const card = cardFrom((f) => [
      runTests(f),
      { type: 'approval_requested', intentId: 'i1', reason: 'asks', command: 'npm test' },
      { type: 'observation', observation: { intentId: 'i1', ok: false, code: 'cancelled', content: 'Cancelled before it ran.' } },
    ]);
    assert.equal(status(card).textContent, 'Cancelled');
    assert.equal(status(card).classList.contains('status-failed'), false);
    assert.equal(q(card, '.intent-result').hidden, true);
  });

  it('a rejection is said once, with the reason, and not as a failure', () => {
    const card = cardFrom((f) => [
      runTests(f),
      { type: 'approval_requested', intentId: 'i1', reason: 'asks', command: 'npm test' },
      { type: 'intent_rejected', intentId: 'i1', reason: 'not now' },
      {
        type: 'observation',
        observation: { intentId: 'i1', ok: false, code: 'rejected_by_user', content: 'The user rejected this: not now' },
      },
    ]);
    assert.equal(status(card).textContent, 'Rejected');
    assert.equal(status(card).classList.contains('status-failed'), false);
    assert.equal(q(card, '.intent-reason').textContent, 'Your reason: not now');
    assert.equal(q(card, '.intent-result').hidden, true, 'no red result repeating the rejection');
    assert.equal((card.textContent ?? '').match(/not now/g)?.length, 1);
  });

  it('tests that ran and failed get a failure mark, not ✓', () => {
    const card = cardFrom((f) => [
      runTests(f),
      {
        type: 'observation',
        observation: {
          intentId: 'i1',
          ok: true,
          summary: '3 passed, 1 failed',
          content: 'report',
          facts: { test: { command: 'npm test', passed: 3, failed: 1, ok: false } },
        },
      },
    ]);
    const summary = q(card, '.intent-result summary');
    assert.equal(summary.className, 'error');
    assert.ok(summary.querySelector('.codicon-error'));
    assert.equal(summary.querySelector('.codicon-check'), null);
  });

  it('keeps ✓ for tests that passed', () => {
    const card = cardFrom((f) => [
      runTests(f),
      {
        type: 'observation',
        observation: {
          intentId: 'i1',
          ok: true,
          summary: '4 passed',
          content: 'report',
          facts: { test: { command: 'npm test', passed: 4, failed: 0, ok: true } },
        },
      },
    ]);
    assert.ok(q(card, '.intent-result summary').querySelector('.codicon-check'));
  });
});
