import './dom-env.js';
import assert from 'node:assert/strict';
import { INITIAL_ITEMS, PAGE_SIZE } from '../../../media/transcript-view.js';
import { click, key, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

describe('webview: composer', () => {
  it('Enter sends the text and clears the box', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'fix the failing tests';
    const event = key(input, 'Enter');
    assert.equal(event.defaultPrevented, true);
    assert.deepEqual(t.posted.at(-1), { type: 'task/send', text: 'fix the failing tests' });
    assert.equal(input.value, '');
  });

  it('Shift+Enter does not send (it is a newline)', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'line one';
    const event = key(input, 'Enter', { shiftKey: true });
    assert.equal(event.defaultPrevented, false);
    assert.equal(t.posted.filter((m) => m.type === 'task/send').length, 0);
    assert.equal(input.value, 'line one');
  });

  it('shows Stop beside a Send that queues while a run is live, and Stop posts task/stop', () => {
    const t = makeApp();
    t.receive(snapshot([], { status: 'running' }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="send"]').getAttribute('aria-label'), 'Queue (sent when this run ends; Stop puts it back)');
    assert.equal(q(t.root, '[data-testid="stop"]').hidden, false);
    click(q(t.root, '[data-testid="stop"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'task/stop' });
    t.receive(deltas()({ type: 'status/set', status: 'completed' }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="stop"]').hidden, true);
    assert.equal(q(t.root, '[data-testid="send"]').hidden, false);
  });

  it('the header does not repeat the view title buttons (History, New Task)', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    assert.equal(t.root.querySelector('[data-testid="new-task"]'), null);
    assert.equal(t.root.querySelector('[data-testid="history"]'), null);
  });

  it('the history panel (restored open) opens and deletes tasks', () => {
    const t = makeApp({ historyOpen: true });
    t.receive(
      snapshot([], { tasks: { tasks: [{ id: 't1', title: 'Fix tests', updatedAt: 0, status: 'completed' }], currentTaskId: 't1' } }),
    );
    t.frame();
    click(q(t.root, '[data-testid="task-delete"]'));
    click(q(t.root, '[data-testid="task-open"]'));
    assert.deepEqual(t.posted.slice(1), [
      { type: 'task/delete', id: 't1' },
      { type: 'task/open', id: 't1' },
    ]);
  });

  it('the history says when another window runs a task', () => {
    const t = makeApp({ historyOpen: true });
    const task = { id: 't1', title: 'Fix tests', updatedAt: 0, status: 'running' as const, elsewhere: true };
    t.receive(snapshot([], { tasks: { tasks: [task] } }));
    t.frame();
    assert.match(q(t.root, '.task-meta').textContent ?? '', /^running in another window · /);
  });
});

describe('webview: session', () => {
  it('is labelled for assistive technology', () => {
    const t = makeApp();
    const log = q(t.root, '[data-testid="transcript"]');
    assert.equal(log.getAttribute('role'), 'log');
    assert.equal(log.getAttribute('aria-live'), 'polite');
    const unlabelled = Array.from(t.root.querySelectorAll('button')).filter((b) => !b.getAttribute('aria-label'));
    assert.deepEqual(
      unlabelled.map((b) => b.outerHTML),
      [],
    );
  });

  it('asks for a snapshot on start and restores its draft from getState', () => {
    const t = makeApp({ draft: 'half-typed' });
    assert.deepEqual(t.posted[0], { type: 'webview/ready' });
    assert.equal(q<HTMLTextAreaElement>(t.root, '[data-testid="input"]').value, 'half-typed');
  });

  it('drops malformed and unknown messages with a log line, and keeps working', () => {
    const t = makeApp();
    t.receive({ type: 'session/explode' });
    t.receive({ type: 'transcript/delta', seq: 'one', ops: [] });
    t.receive(null);
    t.receive('text');
    assert.equal(t.logs.length, 4);
    t.receive(snapshot([{ kind: 'user', id: 'u1', text: 'hello' }]));
    t.frame();
    assert.equal(q(t.root, '[data-testid="user-message"]').textContent, 'hello');
  });

  it('ignores stale deltas and asks for a snapshot after a gap', () => {
    const t = makeApp();
    t.receive(snapshot([{ kind: 'assistant', id: 'a1', text: 'A' }], { seq: 5 }));
    t.frame();
    t.receive({ type: 'transcript/delta', seq: 5, ops: [{ type: 'text/append', id: 'a1', text: 'stale' }] });
    t.frame();
    t.receive({ type: 'transcript/delta', seq: 7, ops: [{ type: 'text/append', id: 'a1', text: 'after-gap' }] });
    t.frame();
    assert.equal(q(t.root, '[data-testid="assistant-text"]').textContent?.trim(), 'A');
    assert.deepEqual(t.posted.at(-1), { type: 'webview/ready', lastSeq: 5 });
  });

  it('shows the hints: no API key (with its button), Restricted Mode, Resume', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { noApiKey: true, restricted: true, canResume: true } }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="restricted-notice"]').hidden, false);
    click(q(t.root, '[data-testid="set-api-key"]'));
    click(q(t.root, '[data-testid="resume"]'));
    assert.deepEqual(t.posted.slice(1), [{ type: 'apiKey/set' }, { type: 'task/resume' }]);
    t.receive(deltas()({ type: 'hints/set', hints: { noApiKey: false, restricted: false, canResume: false } }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="set-api-key"]').closest<HTMLElement>('.banner')!.hidden, true);
  });

  it('shows "retrying in N s" and an error notice with its action', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const d = deltas();
    t.receive(d({ type: 'retry/set', retry: { attempt: 2, delayMs: 5000, message: 'Overloaded' } }));
    t.frame();
    assert.match(q(t.root, '[data-testid="retry-notice"]').textContent ?? '', /Retrying in 5 s/);
    t.receive(
      d(
        { type: 'retry/set', retry: null },
        {
          type: 'item/add',
          item: {
            kind: 'notice',
            id: 'n1',
            level: 'error',
            text: 'Invalid API key',
            action: { label: 'Set API Key', message: 'apiKey/set' },
          },
        },
      ),
    );
    t.frame();
    assert.equal(q(t.root, '[data-testid="retry-notice"]').hidden, true);
    const notice = q(t.root, '.item[data-testid="notice"]');
    assert.equal(notice.getAttribute('role'), 'alert');
    click(q(notice, '[data-testid="notice-action"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'apiKey/set' });
  });

  it('renders only the newest page of a long transcript, and earlier pages on demand', () => {
    const t = makeApp();
    const items = Array.from({ length: 1000 }, (_, i) => ({ kind: 'user' as const, id: `u${i}`, text: `message ${i}` }));
    t.receive(snapshot(items));
    t.frame();
    const rendered = () => t.root.querySelectorAll('[data-testid="user-message"]');
    assert.equal(rendered().length, INITIAL_ITEMS);
    assert.equal(rendered()[INITIAL_ITEMS - 1]!.textContent, 'message 999');
    click(q(t.root, '.earlier'));
    assert.equal(rendered().length, INITIAL_ITEMS + PAGE_SIZE);
    assert.equal(rendered()[0]!.textContent, `message ${1000 - INITIAL_ITEMS - PAGE_SIZE}`);
    assert.equal(rendered()[PAGE_SIZE]!.textContent, `message ${1000 - INITIAL_ITEMS}`, 'in order');
    t.receive(deltas()({ type: 'item/add', item: { kind: 'user', id: 'u1000', text: 'message 1000' } }));
    t.frame();
    assert.equal(Array.from(rendered()).at(-1)!.textContent, 'message 1000');
  });

  it("removes a retried turn's items", () => {
    const t = makeApp();
    t.receive(snapshot([{ kind: 'assistant', id: 'a1', text: 'partial' }]));
    t.frame();
    t.receive(deltas()({ type: 'item/remove', id: 'a1' }));
    t.frame();
    assert.equal(t.root.querySelector('[data-testid="assistant-text"]'), null);
  });
});

describe('webview: snapshot items', () => {
  it('shows an item that fails validation as an error notice and logs it; the rest render', () => {
    const t = makeApp();
    const message = snapshot([{ kind: 'user', id: 'u1', text: 'fine' }]);
    const items = JSON.parse(message.itemsJson) as unknown[];
    items.push({ kind: 'intent', id: 'bad', tool: 'x', risk: 'root', status: 'done' }, 42, { kind: 'user', id: 'u2', text: 'also fine' });
    t.receive({ ...message, itemsJson: JSON.stringify(items) });
    t.frame();
    assert.deepEqual(
      Array.from(t.root.querySelectorAll('[data-testid="user-message"]'), (e) => e.textContent),
      ['fine', 'also fine'],
    );
    assert.match(q(t.root, '.item[data-item-id="bad"]').textContent ?? '', /could not be shown/);
    assert.equal(t.logs.length, 1);
  });

  it('drops snapshot items that are not a JSON array, with a log line', () => {
    const t = makeApp();
    t.receive({ ...snapshot(), itemsJson: '{not json' });
    t.frame();
    assert.equal(t.root.querySelectorAll('.item').length, 0);
    assert.match(t.logs[0] ?? '', /not a JSON array/);
  });
});

describe('webview: batches', () => {
  it('applies deltas that follow a snapshot in the same frame exactly once', () => {
    const t = makeApp();
    t.receive(snapshot()); // applied at once
    t.receive(
      snapshot(
        [
          { kind: 'assistant', id: 'a1', text: 'Hello' },
          { kind: 'user', id: 'u1', text: 'gone soon' },
        ],
        { seq: 3 },
      ),
    );
    const d = deltas(3);
    t.receive(d({ type: 'text/append', id: 'a1', text: ', world' }, { type: 'item/remove', id: 'u1' }));
    t.receive(d({ type: 'item/add', item: { kind: 'user', id: 'u2', text: 'next' } }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="assistant-text"]').textContent?.trim(), 'Hello, world');
    assert.deepEqual(
      Array.from(t.root.querySelectorAll('[data-testid="user-message"]'), (e) => e.textContent),
      ['next'],
    );
  });
});
