// Issue 34, problem 1: nothing is approved by accident. A card that starts waiting never takes the
// keyboard; text typed on anything that is not a text box (a card, a clicked link or prompt, a
// button the view focused by itself) goes into the composer whole; Space and Enter press a
// control only when the user moved the keyboard there.
import './dom-env.js';
import assert from 'node:assert/strict';
import type { IntentItem, TranscriptItem } from '../../../src/protocol/index.js';
import { click, makeApp, q } from './dom-env.js';
import { deltas, intentItem as anyIntent, snapshot } from './fixtures.js';

const intentItem = (...args: Parameters<typeof anyIntent>) => anyIntent(...args) as IntentItem;
type App = ReturnType<typeof makeApp>;

/** A keydown as a person's keyboard sends it, on whatever has the keyboard. */
function press(keyName: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const target = document.activeElement ?? document.body;
  const event = new KeyboardEvent('keydown', { key: keyName, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

/**
 * Types `text` a key at a time, where the keyboard is; a key nobody stopped types its character
 * into the text box that has the keyboard then, as the browser does (jsdom has no such default).
 */
function type(text: string): void {
  for (const ch of text) {
    if (press(ch).defaultPrevented) continue;
    const box = document.activeElement;
    if (box?.tagName !== 'TEXTAREA' && box?.tagName !== 'INPUT') continue;
    const field = box as HTMLTextAreaElement;
    field.setRangeText(ch, field.selectionStart, field.selectionEnd, 'end');
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/** A click with the mouse: the press moves the keyboard to the control, then the click (no key involved). */
function mouseClick(el: HTMLElement): void {
  el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
  el.focus();
  click(el);
}

/** The user tabs onto `el` (the keyboard moves there by the user's own Tab, before the key comes up). */
function tabTo(el: HTMLElement): void {
  press('Tab');
  el.focus();
  el.dispatchEvent(new KeyboardEvent('keyup', { key: 'Tab', bubbles: true }));
}

const input = (t: App) => q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
const decisions = (t: App) => t.posted.filter((m) => m.type === 'intent/approve' || m.type === 'intent/reject');

/** A run whose card `id` starts waiting while the view shows it. */
function cardStartsWaiting(t: App, id = 'i1', d = deltas()): ReturnType<typeof deltas> {
  t.receive(snapshot([{ kind: 'user', id: 'u1', text: 'go' }], { status: 'running' }));
  t.frame();
  t.receive(d({ type: 'item/add', item: { ...intentItem(id), status: 'proposed' } }));
  t.receive(
    d({ type: 'intent/update', id, patch: { status: 'awaiting_approval' } }, { type: 'status/set', status: 'waiting_for_approval' }),
  );
  t.frame();
  return d;
}

describe('webview: approval only by intent (issue 34)', () => {
  it('a card that starts waiting leaves the keyboard in an empty composer, and says so to screen readers', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    input(t).focus();
    cardStartsWaiting(t);
    assert.equal(document.activeElement, input(t), 'the composer keeps the keyboard');
    assert.match(q(t.root, '[aria-live="assertive"]').textContent ?? '', /^Keel asks for approval: Edit a file/);
    type('also explain why');
    assert.equal(input(t).value, 'also explain why', 'every key typed is in the message');
    assert.deepEqual(decisions(t), [], 'nothing was decided');
  });

  it('a card that starts waiting with the keyboard on nothing does not take it either', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    (document.activeElement as HTMLElement | null)?.blur();
    cardStartsWaiting(t);
    assert.notEqual(document.activeElement, q(t.root, '[data-testid="approve"]'));
    type('also explain why');
    assert.equal(input(t).value, 'also explain why');
    assert.equal(document.activeElement, input(t));
    assert.deepEqual(decisions(t), []);
  });

  it('text typed after clicking a card lands in the composer, its first Space included', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    cardStartsWaiting(t);
    mouseClick(q(t.root, '[data-testid="intent-card"]'));
    const first = press(' ');
    assert.equal(first.defaultPrevented, true, 'the Space does not act on the card');
    type('also explain why');
    assert.equal(input(t).value, ' also explain why');
    assert.deepEqual(decisions(t), []);
    assert.deepEqual(
      t.posted.filter((m) => m.type === 'intent/focus'),
      [{ type: 'intent/focus', intentId: 'i1' }],
      'the click opened the card once; no key did again',
    );
  });

  it('Space and Enter on an Approve the view focused by itself go to the composer, not to the button', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    cardStartsWaiting(t);
    const approve = q(t.root, 'button[data-testid="approve"]');
    approve.focus(); // not the user's doing: no Tab, no click
    const space = press(' ');
    assert.equal(space.defaultPrevented, true, 'Space does not press Approve');
    assert.equal(document.activeElement, input(t));
    assert.equal(input(t).value, ' ');
    approve.focus();
    const enter = press('Enter');
    assert.equal(enter.defaultPrevented, true, 'Enter does not press Approve');
    assert.equal(document.activeElement, input(t));
    assert.deepEqual(decisions(t), []);
  });

  it('Space on an Approve the user tabbed to presses it (the keyboard went there on purpose)', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    cardStartsWaiting(t);
    const approve = q(t.root, 'button[data-testid="approve"]');
    tabTo(approve);
    assert.equal(press(' ').defaultPrevented, false, 'the browser presses the button');
    assert.equal(press('Enter').defaultPrevented, false);
    assert.equal(document.activeElement, approve);
  });

  it('the approval keys still decide from anywhere in the view', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    cardStartsWaiting(t);
    input(t).focus();
    press('Y', { code: 'KeyY', altKey: true, shiftKey: true });
    assert.deepEqual(decisions(t), [{ type: 'intent/approve', intentId: 'i1', scope: 'once' }]);
  });

  it('after clicking a welcome prompt the keyboard is in the composer, and typing there sends nothing else', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    t.receive(snapshot([], { status: 'idle' }));
    t.frame();
    mouseClick(q(t.root, '[data-testid="welcome-prompt"]'));
    assert.equal(document.activeElement, input(t), 'the composer has the keyboard after the prompt went');
    const sent = t.posted.filter((m) => m.type === 'task/send').length;
    type(' and then');
    assert.equal(input(t).value, ' and then');
    assert.equal(t.posted.filter((m) => m.type === 'task/send').length, sent, 'a Space did not send the prompt again');
  });

  it('text typed after clicking a link lands in the composer', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    const answer: TranscriptItem = { kind: 'assistant', id: 'a1', text: 'See [the docs](https://example.com/docs).', done: true };
    t.receive(snapshot([answer], { status: 'completed' }));
    t.frame();
    const link = q(t.root, '.markdown a[href]');
    mouseClick(link);
    type('thanks ok');
    assert.equal(input(t).value, 'thanks ok');
    assert.equal(t.posted.filter((m) => m.type === 'link/open').length, 1, 'the click opened the link once; the keys did not');
  });
});
