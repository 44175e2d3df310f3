// The `@` menu opens at the caret, in the view — not the window's quick pick at the top — lists
// what the host offers narrowed by what is typed, and a pick puts `@label` in the sentence where
// the `@` was typed, with one space after it (none doubled), without sending the message.
import './dom-env.js';
import assert from 'node:assert/strict';
import { MentionMenu } from '../../../media/mention-menu.js';
import type { MentionItem, WebviewMessage } from '../../../src/protocol/index.js';
import { key, makeApp, q } from './dom-env.js';
import { snapshot } from './fixtures.js';

const ITEMS: MentionItem[] = [
  { key: 'problems', label: 'Problems', description: 'errors and warnings', kind: 'problems' },
  { key: 'file:src/app.ts', label: 'src/app.ts', kind: 'file' },
  { key: 'file:test/app.test.ts', label: 'test/app.test.ts', kind: 'file' },
  { key: 'folder:src', label: 'src/', kind: 'folder' },
];

function type(input: HTMLTextAreaElement, text: string): void {
  const at = input.selectionStart;
  input.value = input.value.slice(0, at) + text + input.value.slice(at);
  input.setSelectionRange(at + text.length, at + text.length);
  const InputEvent = (window as unknown as { InputEvent: typeof globalThis.InputEvent }).InputEvent;
  input.dispatchEvent(new InputEvent('input', { data: text, bubbles: true }));
}

function ready() {
  const t = makeApp();
  t.receive(snapshot());
  t.frame();
  const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
  input.focus();
  return { t, input, menu: () => q(t.root, '[data-testid="mention-list"]') };
}

const options = (menu: HTMLElement) =>
  [...menu.querySelectorAll('[role="option"]')].map((o) => o.querySelector('.command-name')?.textContent);

describe('webview: the @ menu', () => {
  it('opens in the view as `@` is typed, narrows as the name is typed, and a pick goes in the sentence', () => {
    const { t, input, menu } = ready();
    type(input, 'fix the bug in ');
    type(input, '@');
    assert.equal(menu().hidden, false, 'the menu opens at once (in the view, not a quick pick)');
    assert.ok(!t.posted.some((m) => m.type === 'attach/pick'), 'no quick pick at the top of the window');
    assert.deepEqual(t.posted.at(-1), { type: 'mention/list' });
    t.receive({ type: 'composer/mentions', items: ITEMS });
    assert.deepEqual(options(menu()), ['Problems', 'src/app.ts', 'test/app.test.ts', 'src/']);
    for (const ch of 'app') type(input, ch);
    assert.deepEqual(options(menu()), ['src/app.ts', 'test/app.test.ts'], 'a name starting with it first');
    key(input, 'ArrowDown');
    key(input, 'ArrowUp');
    const sent = t.posted.length;
    key(input, 'Enter');
    assert.equal(input.value, 'fix the bug in @src/app.ts ', 'the mention where it was typed');
    assert.equal(input.selectionStart, input.value.length);
    assert.deepEqual(t.posted.slice(sent), [{ type: 'mention/pick', key: 'file:src/app.ts' }], 'Enter picked; nothing was sent');
    assert.equal(menu().hidden, true);
  });

  it('leaves one space, not two, when the `@` was typed before a word', () => {
    const { t, input } = ready();
    type(input, 'look at  please');
    input.setSelectionRange(8, 8);
    type(input, '@');
    t.receive({ type: 'composer/mentions', items: ITEMS });
    type(input, 'src/');
    key(input, 'Enter');
    assert.equal(input.value, 'look at @src/ please');
    assert.equal(input.selectionStart, 'look at @src/ '.length, 'the caret after the space, ready for the next word');
    // The chip the host answers with joins the tray; the caret stays where the mention ends.
    t.receive({ type: 'composer/attach', chip: { id: 'att1', kind: 'folder', label: 'src/' } });
    assert.equal(input.selectionStart, 'look at @src/ '.length);
    assert.equal(t.root.querySelectorAll('.attachment-tray [data-testid="attachment-chip"]').length, 1);
  });

  it('closes on Escape or a space, the text kept as typed', () => {
    const { t, input, menu } = ready();
    type(input, '@');
    t.receive({ type: 'composer/mentions', items: ITEMS });
    key(input, 'Escape');
    assert.equal(menu().hidden, true);
    assert.equal(input.value, '@');
    type(input, ' ');
    type(input, '@');
    assert.equal(menu().hidden, false);
    type(input, ' ');
    assert.equal(menu().hidden, true, 'a space ends the mention');
    assert.equal(input.value, '@ @ ');
  });

  it('sits at the caret: its corner where the `@` is drawn in the box', () => {
    document.body.replaceChildren();
    const box = document.createElement('div');
    const input = document.createElement('textarea');
    box.append(input);
    document.body.append(box);
    const posted: WebviewMessage[] = [];
    const menu = new MentionMenu(
      input,
      (m) => posted.push(m),
      (_box, index) => ({ left: 7 * index, top: 20 }),
    );
    Object.defineProperty(input, 'clientWidth', { value: 600 });
    input.value = 'see @';
    input.setSelectionRange(5, 5);
    menu.open(4);
    assert.equal(menu.el.style.left, '28px', 'at the @, not the left edge');
    assert.equal(menu.el.style.top, '20px', 'at its line, not the top of the window');
  });
});
