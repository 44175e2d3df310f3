// Issue 34, problem 3: a call the chosen mode or agent does not allow is the user's choice, not a
// failure. The kernel codes its refusal (blocked_by_mode, blocked_by_agent); the presenter turns
// the code into `notRun` and the card reads "Not run in Plan mode" in neutral words and colour.
// The kernel's events go through the real presenter into the real webview.
import './dom-env.js';
import assert from 'node:assert/strict';
import type { Observation, RuntimeEventInput } from '../../../src/kernel/contracts/index.js';
import type { HostMessage } from '../../../src/protocol/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { EventFactory } from '../presenter/events.js';
import { FakeClock } from '../presenter/fake-clock.js';
import { makeApp, q } from './dom-env.js';

function cardAfter(observation: Pick<Observation, 'code' | 'summary' | 'content'>) {
  const f = new EventFactory();
  const posts: HostMessage[] = [];
  const presenter = new Presenter({ clock: new FakeClock(), post: (m) => posts.push(m), kernel: () => f.state });
  const intent = {
    ...f.intent('i1'),
    tool: 'write_file',
    input: { path: 'src/app.ts', content: 'x' },
    summary: 'src/app.ts',
    risk: 'write' as const,
  };
  const events: RuntimeEventInput[] = [
    { type: 'user_message' as const, text: 'add a flag' },
    { type: 'intent_proposed' as const, intent },
    { type: 'observation' as const, observation: { intentId: 'i1', ok: false, ...observation } },
  ];
  for (const input of events) presenter.handle(f.out(input));
  presenter.postSnapshot();
  const t = makeApp();
  t.receive(posts.at(-1));
  t.frame();
  return q(t.root, '[data-testid="intent-card"]');
}

describe('webview: a call the mode or agent does not allow (issue 34)', () => {
  it('reads "Not run in Plan mode", neutral, not a red failure', () => {
    const card = cardAfter({
      code: 'blocked_by_mode',
      summary: 'Not run in Plan mode',
      content: 'The call to write_file did not run: write_file is not available in Plan mode.',
    });
    assert.equal(card.dataset.shownStatus, 'not_run');
    assert.equal(q(card, '.intent-status').textContent, 'Not run');
    assert.ok(!q(card, '.intent-status').classList.contains('status-failed'), 'not the failure colour');
    const result = q(card, '.intent-result summary');
    assert.equal(result.textContent?.trim(), 'Not run in Plan mode');
    assert.ok(result.classList.contains('not-run') && !result.classList.contains('error'));
    assert.doesNotMatch(card.getAttribute('aria-label') ?? '', /Failed/);
  });

  it('names the agent that does not use the tool', () => {
    const card = cardAfter({
      code: 'blocked_by_agent',
      summary: 'Not run: the agent reviewer does not use this tool',
      content: 'write_file is not available to the agent "reviewer" the user picked.',
    });
    assert.equal(q(card, '.intent-status').textContent, 'Not run');
    assert.equal(q(card, '.intent-result summary').textContent?.trim(), 'Not run: the agent reviewer does not use this tool');
  });

  it('a call that failed is still a failure', () => {
    const card = cardAfter({ code: 'execution_failed', summary: 'disk full', content: 'ENOSPC' });
    assert.equal(q(card, '.intent-status').textContent, 'Failed');
    assert.ok(q(card, '.intent-result summary').classList.contains('error'));
  });
});
