// The narrow panel (issue 34 #14), the parts a DOM without layout can judge: the reject form
// holds the only Reject while it is open, and the to-do pin collapses to its head (naming the
// item in progress) and opens again. Widths and rows are measured in Chromium:
// test/e2e/narrow-panel.e2e.test.ts.
import './dom-env.js';
import assert from 'node:assert/strict';
import { click, makeApp, q } from './dom-env.js';
import { intentItem, snapshot } from './fixtures.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };
/** Buttons a person sees: none hidden by itself or by an ancestor. */
const visible = (root: Element, selector: string) =>
  [...root.querySelectorAll<HTMLElement>(selector)].filter((el) => !el.closest('[hidden]'));

describe('webview: a narrow panel', () => {
  it('shows one Reject while the reject form is open, and the card’s own again on Cancel', () => {
    const t = makeApp();
    t.receive(snapshot([intentItem('i1')], { status: 'waiting_for_approval', pendingIntentIds: ['i1'] }));
    t.frame();
    const card = q(t.root, '[data-testid="intent-card"]');
    const rejects = () => visible(card, 'button').filter((b) => b.textContent === 'Reject');
    assert.equal(rejects().length, 1);
    click(q(card, '[data-testid="reject"]'));
    assert.deepEqual(
      rejects().map((b) => b.dataset.testid),
      ['reject-confirm'],
      'the form’s Reject alone: no second one beside it',
    );
    click(q(card, '[data-action="reject-cancel"]'));
    assert.deepEqual(
      rejects().map((b) => b.dataset.testid),
      ['reject'],
    );
  });

  it('collapses the to-do pin to one line naming the item in progress, and opens it again', () => {
    const todos = [
      { id: '1', text: 'Read the parser', status: 'done' as const },
      { id: '2', text: 'Handle exponents', status: 'in_progress' as const },
      { id: '3', text: 'Add a test', status: 'pending' as const },
    ];
    const t = makeApp();
    t.receive(snapshot([], { status: 'running', hints: { ...HINTS, todos } }));
    t.frame();
    const toggle = q(t.root, '[data-testid="todo-pin-toggle"]');
    const list = q(t.root, '.todo-pin-items');
    assert.equal(toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(toggle.getAttribute('aria-controls'), list.id);
    click(toggle);
    assert.equal(toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(list.hidden, true, 'the transcript gets the room');
    assert.equal(toggle.textContent, 'To-do · 1 of 3 done · now: Handle exponents');
    click(toggle);
    assert.equal(list.hidden, false);
    assert.equal(toggle.textContent, 'To-do · 1 of 3 done');
  });
});
