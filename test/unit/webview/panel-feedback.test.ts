// Issue 34 #15: the panel answers what the user just did. Edit & resend brings its box (with
// Resend) into view instead of the view pinning the bottom; a finished plan says that typing
// revises it, beside Approve plan. (Copy's visible tick: markdown-narrow.test.ts.)
import './dom-env.js';
import assert from 'node:assert/strict';
import { click, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };

describe('webview: the panel answers what the user did', () => {
  it('brings the Edit box, Resend and all, into view when it opens', () => {
    const t = makeApp();
    t.receive(
      snapshot([
        { kind: 'user', id: 'u3', text: 'fix the parser' },
        { kind: 'assistant', id: 'a4', text: 'Done.', done: true },
      ]),
    );
    t.frame();
    const shown: Element[] = [];
    Object.defineProperty(window.HTMLElement.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: HTMLElement) {
        shown.push(this);
      },
    });
    try {
      click(q(t.root, '[data-item-id="u3"] [data-testid="edit-message"]'));
      assert.equal(shown.length, 1, 'scrolled into view once');
      assert.ok(shown[0]!.querySelector('[data-testid="resend-message"]'), 'the whole editor, its Resend too');
      assert.equal(document.activeElement, q(t.root, '[data-testid="edit-message-input"]'));
    } finally {
      delete (window.HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });

  it('says beside Approve plan that typing revises the plan, and only for a finished plan', () => {
    const todos = [{ id: '1', text: 'Read the parser', status: 'pending' as const }];
    const t = makeApp();
    t.receive(snapshot([], { status: 'running', hints: { ...HINTS, mode: 'plan', todos } }));
    t.frame();
    const hint = q(t.root, '[data-testid="plan-hint"]');
    assert.equal(hint.hidden, true, 'not while the plan is being written');
    t.receive(deltas()({ type: 'status/set', status: 'completed' }));
    t.frame();
    assert.equal(hint.hidden, false);
    assert.match(hint.textContent ?? '', /type what to change in the box below/i);
  });
});
