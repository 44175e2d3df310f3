import './dom-env.js';
import assert from 'node:assert/strict';
import { click, key, makeApp, q } from './dom-env.js';
import { deltas, intentItem, snapshot } from './fixtures.js';

function withPendingIntent() {
  const t = makeApp();
  t.receive(snapshot([intentItem('i1')], { status: 'waiting_for_approval', pendingIntentIds: ['i1'] }));
  t.frame();
  t.posted.length = 0;
  return t;
}

describe('webview: intent cards', () => {
  it('labels the card and exposes its status', () => {
    const t = withPendingIntent();
    const card = q(t.root, '[data-testid="intent-card"]');
    assert.equal(card.getAttribute('role'), 'group');
    assert.equal(card.getAttribute('data-intent-status'), 'awaiting_approval');
    assert.match(card.getAttribute('aria-label') ?? '', /^Edit a file: src\/a\.ts \(changes files\)/);
    assert.match(q(card, '.intent-reason').textContent ?? '', /^Changes files\.$/, 'the risk in words while it waits, with no reason');
    assert.ok(card.querySelector('[data-testid="approve-i1"] [data-testid="approve"]'));
  });

  it("shows the policy's reason once, not after the risk's words that say the same", () => {
    const t = makeApp();
    const item = { ...intentItem('i1'), approvalReason: 'Changes src/price.js.' };
    t.receive(snapshot([item], { status: 'waiting_for_approval', pendingIntentIds: ['i1'] }));
    t.frame();
    assert.equal(q(t.root, '.intent-reason').textContent, 'Changes src/price.js.');
  });

  it('names the action in words for a screen reader, not the tool id', () => {
    const t = withPendingIntent();
    assert.equal(q(t.root, '[data-testid="approve"]').getAttribute('aria-label'), 'Approve: Edit a file');
    assert.equal(q(t.root, '[data-testid="reject"]').getAttribute('aria-label'), 'Reject: Edit a file');
  });

  it('Approve posts intent/approve once', () => {
    const t = withPendingIntent();
    click(q(t.root, '[data-testid="approve"]'));
    assert.deepEqual(t.posted, [{ type: 'intent/approve', intentId: 'i1', scope: 'once' }]);
  });

  it('the per-intent wrapper approves too', () => {
    const t = withPendingIntent();
    click(q(t.root, '[data-testid="approve-i1"]'));
    assert.deepEqual(t.posted, [{ type: 'intent/approve', intentId: 'i1', scope: 'once' }]);
  });

  it('"always" choices carry their scope', () => {
    const t = withPendingIntent();
    click(q(t.root, '[data-testid="approve-task"]'));
    const t2 = withPendingIntent();
    click(q(t2.root, '[data-testid="approve-workspace"]'));
    assert.deepEqual(t.posted, [{ type: 'intent/approve', intentId: 'i1', scope: 'task' }]);
    assert.deepEqual(t2.posted, [{ type: 'intent/approve', intentId: 'i1', scope: 'workspace' }]);
  });

  it('"always" on a web_fetch card names the one origin it covers', () => {
    const t = makeApp();
    const item = { ...intentItem('i1'), tool: 'web_fetch', risk: 'network' as const, grantOrigin: 'https://example.com' };
    t.receive(snapshot([item], { status: 'waiting_for_approval', pendingIntentIds: ['i1'] }));
    t.frame();
    const always = q(t.root, '.intent-always');
    assert.equal(always.textContent, 'Always for https://example.com: this task · this workspace');
    assert.match(q(t.root, '[data-testid="approve-task"]').getAttribute('aria-label') ?? '', /on https:\/\/example\.com for this task/);
    const plain = withPendingIntent();
    assert.equal(q(plain.root, '.intent-always').textContent, 'Always: this task · this workspace');
  });

  it('Reject asks for an optional reason inline, then posts it', () => {
    const t = withPendingIntent();
    const reason = q<HTMLInputElement>(t.root, '[data-testid="reject-reason"]');
    assert.equal(reason.closest<HTMLElement>('.reject-form')!.hidden, true);
    click(q(t.root, '[data-testid="reject"]'));
    assert.equal(reason.closest<HTMLElement>('.reject-form')!.hidden, false);
    assert.deepEqual(t.posted, [], 'nothing sent before confirming');
    reason.value = 'use the other file';
    key(reason, 'Enter');
    assert.deepEqual(t.posted, [{ type: 'intent/reject', intentId: 'i1', reason: 'use the other file' }]);
  });

  it('Reject without a reason posts no reason', () => {
    const t = withPendingIntent();
    click(q(t.root, '[data-testid="reject-i1"]'));
    click(q(t.root, '[data-testid="reject-confirm"]'));
    assert.deepEqual(t.posted, [{ type: 'intent/reject', intentId: 'i1' }]);
  });

  it('clicking the card focuses its diff; buttons vanish once decided', () => {
    const t = withPendingIntent();
    click(q(t.root, '.intent-summary'));
    assert.deepEqual(t.posted, [{ type: 'intent/focus', intentId: 'i1' }]);
    const d = deltas();
    t.receive(d({ type: 'intent/update', id: 'i1', patch: { status: 'running', startedAt: Date.now() - 3500 } }));
    t.frame();
    const card = q(t.root, '[data-testid="intent-card"]');
    assert.equal(card.getAttribute('data-intent-status'), 'running');
    assert.equal(q(card, '.intent-actions').hidden, true);
    assert.ok(card.querySelector('.codicon-loading'), 'spinner while running');
    assert.match(q(card, '.intent-elapsed').textContent ?? '', /^3s$/);
  });

  it('shows a bounded live tail, then the result summary with expandable detail', () => {
    const t = makeApp();
    t.receive(snapshot([intentItem('i1', 'running')], { status: 'executing' }));
    t.frame();
    const d = deltas();
    t.receive(d({ type: 'intent/progress', id: 'i1', chunk: 'x'.repeat(5000) }));
    t.receive(d({ type: 'intent/progress', id: 'i1', chunk: 'END' }));
    t.frame();
    const tail = q(t.root, '.intent-progress').textContent ?? '';
    assert.equal(tail.length, 4096);
    assert.ok(tail.endsWith('END'));
    t.receive(
      d({
        type: 'intent/update',
        id: 'i1',
        patch: { status: 'done', elapsedMs: 2500, result: { ok: true, summary: '41 passed', detail: 'full log' } },
      }),
    );
    t.frame();
    assert.equal(q(t.root, '.intent-result summary').textContent?.trim(), '41 passed');
    assert.equal(q(t.root, '.intent-detail').textContent, 'full log');
    assert.equal(q(t.root, '.intent-elapsed').textContent, '2s');
  });
});
