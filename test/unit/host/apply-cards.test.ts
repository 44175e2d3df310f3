// Issue 21 #3: an Apply's approval lives on a card in the transcript (Approve / Reject, the
// approval keys), not in a notification that hides itself while the diff stays pending; the card
// says how it ended. Its answers are its own: the task's intents are not touched.
import assert from 'node:assert/strict';
import type { HostMessage, IntentItem } from '../../../src/protocol/index.js';
import { ApplyCards } from '../../../src/host/edits/apply-cards.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { initialState } from '../../../src/kernel/index.js';

function setup() {
  const posted: HostMessage[] = [];
  const presenter = new Presenter({ post: (m) => posted.push(m), kernel: initialState });
  const cards = new ApplyCards(() => presenter);
  const card = () => presenter.items().find((i): i is IntentItem => i.kind === 'intent' && i.id === 'apply-1');
  return { presenter, cards, card, posted };
}

describe('Apply cards (issue 21 #3)', () => {
  it('shows a waiting card at once; its Approve decides the review, once', () => {
    const w = setup();
    const answers: boolean[] = [];
    w.cards.open('apply-1', { rel: 'src/price.js', summary: 'Replace lines 11–13 of src/price.js', reason: 'Review the change.' }, (a) =>
      answers.push(a),
    );
    assert.equal(w.card()?.status, 'awaiting_approval');
    assert.equal(w.card()?.tool, 'apply_code');
    assert.ok(
      w.posted.some((m) => m.type === 'transcript/delta'),
      'posted at once, not after a frame',
    );
    assert.equal(w.cards.decide('apply-1', true), true);
    assert.equal(w.cards.decide('apply-1', true), false, 'a second answer is not taken');
    assert.deepEqual(answers, [true]);
    w.cards.end('apply-1', { type: 'applied' }, 'src/price.js');
    assert.equal(w.card()?.status, 'done');
    assert.equal(w.card()?.result?.summary, 'Applied to src/price.js');
  });

  it('leaves the task’s own intents to the task, and says a rejection or a failed write', () => {
    const w = setup();
    assert.equal(w.cards.decide('i-task-intent', true), false);
    w.cards.open('apply-1', { rel: 'a.ts', summary: 's', reason: 'r' }, () => undefined);
    w.cards.end('apply-1', { type: 'rejected' }, 'a.ts');
    assert.equal(w.card()?.status, 'rejected');
    w.cards.end('apply-1', { type: 'failed', reason: 'a.ts changed while the diff was open' }, 'a.ts');
    assert.equal(w.card()?.result?.ok, false);
  });
});
