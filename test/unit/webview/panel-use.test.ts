// Issue 21, the panel as a person uses it: Stop with a queued message, sending while scrolled
// up, where the keyboard goes (a run ending, the view getting focus, the host asking), the
// composer growing and its chips (a keyboard list, cleared with the task), and the welcome's keys.
import './dom-env.js';
import assert from 'node:assert/strict';
import type { TranscriptItem } from '../../../src/protocol/index.js';
import { click, key, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const input = (root: HTMLElement) => q<HTMLTextAreaElement>(root, '[data-testid="input"]');
const user = (id: string, text: string): TranscriptItem => ({ kind: 'user', id, text });

/** A scroll box with settable geometry (jsdom does no layout). */
function geometry(el: HTMLElement) {
  const box = { scrollTop: 0, scrollHeight: 1000, clientHeight: 400 };
  Object.defineProperty(el, 'scrollHeight', { get: () => box.scrollHeight });
  Object.defineProperty(el, 'clientHeight', { get: () => box.clientHeight });
  Object.defineProperty(el, 'scrollTop', {
    get: () => box.scrollTop,
    set: (v: number) => {
      box.scrollTop = Math.max(0, Math.min(v, box.scrollHeight - box.clientHeight));
    },
  });
  return box;
}

describe('webview: Stop while a message is queued (issue 21 #5)', () => {
  it('stops, and puts the queued text back in the composer instead of sending it', () => {
    const t = makeApp();
    t.receive(snapshot([], { status: 'running' }));
    t.frame();
    input(t.root).value = 'then also fix the README';
    key(input(t.root), 'Enter');
    click(q(t.root, '[data-testid="stop"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'task/stop' });
    t.receive(deltas()({ type: 'status/set', status: 'cancelled' }));
    t.frame();
    assert.equal(t.posted.filter((m) => m.type === 'task/send').length, 0, 'nothing sent after Stop');
    assert.equal(input(t.root).value, 'then also fix the README');
    assert.equal(q(t.root, '[data-testid="queued"]').hidden, true);
  });
});

describe('webview: sending while scrolled up (issue 21 #6)', () => {
  it('brings the view to the bottom for the reader’s own message', () => {
    const t = makeApp();
    const log = q(t.root, '[data-testid="transcript"]');
    const box = geometry(log);
    t.receive(snapshot([user('u1', 'go')], { status: 'completed' }));
    t.frame();
    box.scrollTop = 100;
    log.dispatchEvent(new window.Event('scroll'));
    box.scrollHeight = 1400;
    t.receive(deltas()({ type: 'item/add', item: user('u2', 'and now this') }));
    t.frame();
    assert.equal(box.scrollTop, 1000, 'at the bottom, where the new message is');
  });

  it('says "New messages" when something arrives while the reader is above, and jumps there on click', () => {
    const t = makeApp();
    const log = q(t.root, '[data-testid="transcript"]');
    const box = geometry(log);
    t.receive(snapshot([user('u1', 'go')], { status: 'running' }));
    t.frame();
    const jump = q(t.root, '[data-testid="jump-latest"]');
    assert.equal(jump.hidden, true);
    box.scrollTop = 100;
    log.dispatchEvent(new window.Event('scroll'));
    box.scrollHeight = 1500;
    t.receive(deltas()({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: 'an answer' } }));
    t.frame();
    assert.equal(box.scrollTop, 100, 'the reader is not moved');
    assert.equal(jump.hidden, false);
    click(jump);
    assert.equal(box.scrollTop, 1100);
    assert.equal(jump.hidden, true);
  });
});

describe('webview: where the keyboard goes (issue 21 #14)', () => {
  it('back to the composer when Stop, which had it, goes away at the end of a run', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    t.receive(snapshot([], { status: 'running' }));
    t.frame();
    const stop = q<HTMLButtonElement>(t.root, '[data-testid="stop"]');
    stop.focus();
    assert.equal(document.activeElement, stop);
    t.receive(deltas()({ type: 'status/set', status: 'completed' }));
    t.frame();
    assert.equal(document.activeElement, input(t.root));
  });

  it('back to the composer when a decided card hides the button that had it', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    const card: TranscriptItem = {
      kind: 'intent',
      id: 'i1',
      tool: 'edit_file',
      summary: 'a.ts',
      risk: 'write',
      status: 'awaiting_approval',
    };
    t.receive(snapshot([card], { status: 'waiting_for_approval' }));
    t.frame();
    const approve = q<HTMLButtonElement>(t.root, 'button[data-testid="approve"]');
    approve.focus();
    click(approve);
    t.receive(deltas()({ type: 'intent/update', id: 'i1', patch: { status: 'approved' } }));
    t.frame();
    assert.equal(document.activeElement, input(t.root));
  });

  it('to the composer when the view gets the keyboard with nothing focused, and when the host asks', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    (document.activeElement as HTMLElement | null)?.blur();
    window.dispatchEvent(new window.FocusEvent('focus'));
    assert.equal(document.activeElement, input(t.root), 'Focus on Chat View lands in the composer');
    input(t.root).blur();
    t.receive({ type: 'composer/focus' });
    assert.equal(document.activeElement, input(t.root), 'New Task lands in the composer');
  });

  it('to the composer after an @ pick, the caret after the text', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    input(t.root).value = 'look at ';
    t.receive({ type: 'composer/attach', chip: { id: 'c1', kind: 'file', label: 'src/price.js' } });
    assert.equal(document.activeElement, input(t.root));
    assert.equal(input(t.root).selectionStart, 'look at '.length);
  });
});

describe('webview: the composer (issue 21 #11)', () => {
  it('grows with the lines typed or pasted, up to ten', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const box = input(t.root);
    assert.equal(box.getAttribute('rows'), '2');
    box.value = Array.from({ length: 6 }, (_, i) => `line ${i}`).join('\n');
    box.dispatchEvent(new window.Event('input'));
    assert.equal(box.getAttribute('rows'), '6');
    box.value = Array.from({ length: 40 }, (_, i) => `at frame ${i}`).join('\n');
    box.dispatchEvent(new window.Event('input'));
    assert.equal(box.getAttribute('rows'), '10');
  });

  it('shows Send as ready only when there is something to send', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const send = q<HTMLButtonElement>(t.root, '[data-testid="send"]');
    assert.equal(send.disabled, true);
    assert.equal(send.classList.contains('ready'), false);
    input(t.root).value = 'go';
    input(t.root).dispatchEvent(new window.Event('input'));
    assert.equal(send.disabled, false);
    assert.equal(send.classList.contains('ready'), true);
  });

  it('forgets the chips of the task before when another task is shown', () => {
    const t = makeApp();
    t.receive(snapshot([], { taskId: 't1' }));
    t.frame();
    t.receive({ type: 'composer/attach', chip: { id: 'c1', kind: 'file', label: 'src/a.ts' } });
    assert.equal(t.root.querySelectorAll('.attachment-tray [data-testid="attachment-chip"]').length, 1);
    t.receive(snapshot([], { taskId: 't2' }));
    t.frame();
    assert.equal(t.root.querySelectorAll('.attachment-tray [data-testid="attachment-chip"]').length, 0);
  });

  it('makes the chips one keyboard list: arrows move, Delete removes, Escape goes back to the text', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    for (const [id, label] of [
      ['c1', 'a.ts'],
      ['c2', 'b.ts'],
      ['c3', 'c.ts'],
    ])
      t.receive({ type: 'composer/attach', chip: { id, kind: 'file', label } });
    const chips = () => [...t.root.querySelectorAll<HTMLElement>('.attachment-tray [data-testid="attachment-chip"]')];
    assert.deepEqual(
      chips().map((c) => c.getAttribute('tabindex')),
      ['0', '-1', '-1'],
      'one Tab stop',
    );
    assert.equal(chips()[0]!.querySelector('button')?.getAttribute('tabindex'), '-1', 'the remove buttons are no Tab stops');
    chips()[0]!.focus();
    key(chips()[0]!, 'ArrowRight');
    assert.equal(document.activeElement, chips()[1]);
    key(chips()[1]!, 'Delete');
    assert.deepEqual(
      chips().map((c) => c.textContent),
      ['a.ts', 'c.ts'],
    );
    assert.equal(document.activeElement, chips()[1], 'the keyboard stays in the list');
    key(chips()[1]!, 'Escape');
    assert.equal(document.activeElement, input(t.root));
  });
});

describe('webview: the approval keys while the view has the keyboard (issue 21 #2)', () => {
  const waiting = (id: string): TranscriptItem => ({
    kind: 'intent',
    id,
    tool: 'run_tests',
    summary: 'npm test',
    risk: 'execute',
    status: 'awaiting_approval',
  });
  const press = (el: Element, letter: string, init: KeyboardEventInit = { altKey: true, shiftKey: true }) =>
    key(el, letter.toLowerCase(), { code: `Key${letter}`, ...init });

  it('Alt+Shift+Y / N / A decide the oldest waiting card from the composer, typing nothing', () => {
    for (const [letter, expected] of [
      ['Y', { type: 'intent/approve', intentId: 'i1', scope: 'once' }],
      ['A', { type: 'intent/approve', intentId: 'i1', scope: 'task' }],
      ['N', { type: 'intent/reject', intentId: 'i1' }],
    ] as const) {
      const t = makeApp();
      t.receive(snapshot([waiting('i1'), waiting('i2')], { status: 'waiting_for_approval' }));
      t.frame();
      const event = press(input(t.root), letter);
      assert.equal(event.defaultPrevented, true);
      assert.deepEqual(t.posted.at(-1), expected);
    }
  });

  it('does nothing for the old Ctrl+Alt keys, or when nothing waits', () => {
    const t = makeApp();
    t.receive(snapshot([waiting('i1')], { status: 'waiting_for_approval' }));
    t.frame();
    const before = t.posted.length;
    press(input(t.root), 'Y', { ctrlKey: true, altKey: true });
    assert.equal(t.posted.length, before);
    const idle = makeApp();
    idle.receive(snapshot());
    idle.frame();
    const count = idle.posted.length;
    press(input(idle.root), 'Y');
    assert.equal(idle.posted.length, count);
  });
});

describe('webview: Keel’s own question (issue 21 #10)', () => {
  it('says the run waits on the user’s answer while Keel’s dialog is open, not on the model', () => {
    const hints = { noApiKey: false, restricted: false, canResume: false };
    const t = makeApp();
    t.receive(
      snapshot([user('u1', 'go')], {
        status: 'running',
        hints: { ...hints, question: 'Send your Anthropic API key to http://127.0.0.1:9?' },
      }),
    );
    t.frame();
    const line = q(t.root, '[data-testid="status-line"] .status-line-text');
    assert.match(line.textContent ?? '', /^Waiting for your answer in the dialog · \d+s$/);
    t.receive(deltas()({ type: 'hints/set', hints }));
    t.frame();
    assert.match(line.textContent ?? '', /^Waiting for the model · /);
  });
});

describe('webview: the welcome (issue 21 #2)', () => {
  it('lists the approval keys in this platform’s notation only', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const keys = q(t.root, '.welcome-keys').textContent ?? '';
    assert.match(keys, /Alt\+Shift\+YApprove/);
    assert.doesNotMatch(keys, /[⌥⌘]/);
  });

  it('scrolls with the conversation (it is inside it), so an empty task gives it the room', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    assert.ok(q(t.root, '[data-testid="welcome"]').closest('[data-testid="transcript"]'));
  });
});

describe('webview: a card that starts waiting comes into view (issue 21)', () => {
  it('even when the reader is above, since nobody else will answer it', () => {
    const t = makeApp();
    const log = q(t.root, '[data-testid="transcript"]');
    const box = geometry(log);
    t.receive(snapshot([user('u1', 'go')], { status: 'running' }));
    t.frame();
    box.scrollTop = 100;
    log.dispatchEvent(new window.Event('scroll'));
    const revealed: string[] = [];
    Object.defineProperty(window.HTMLElement.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: HTMLElement) {
        revealed.push(this.getAttribute('data-intent-id') ?? '');
      },
    });
    try {
      const card: TranscriptItem = {
        kind: 'intent',
        id: 'i9',
        tool: 'apply_code',
        summary: 'a.ts',
        risk: 'write',
        status: 'awaiting_approval',
      };
      t.receive(deltas()({ type: 'item/add', item: card }));
      t.frame();
      assert.deepEqual(revealed, ['i9']);
    } finally {
      delete (window.HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });
});
