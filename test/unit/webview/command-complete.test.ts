// Slash command completion in the composer: after `/` the commands the host listed (hints)
// open above the box as a listbox (name, argument hint, description as text); arrows move the
// active option, Enter puts `/name ` in the box without sending, Escape closes, and once the
// arguments are being typed Enter sends as usual.
import './dom-env.js';
import assert from 'node:assert/strict';
import { key, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };
const COMMANDS = [
  { name: 'fix-tests', description: 'Fix the failing tests', argumentHint: '[glob]' },
  { name: 'fmt', description: '<b>Format</b>' },
  { name: 'review' },
];

function typeText(input: HTMLTextAreaElement, text: string): void {
  input.value = text;
  input.dispatchEvent(new Event('input'));
}

describe('webview: slash command completion', () => {
  it('lists the matching commands after "/" and Enter completes the name without sending', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.receive(deltas()({ type: 'hints/set', hints: { ...HINTS, commands: COMMANDS } }));
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    const list = q(t.root, '[data-testid="command-list"]');
    assert.equal(list.hidden, true);
    typeText(input, '/f');
    assert.equal(list.hidden, false);
    assert.equal(list.getAttribute('role'), 'listbox');
    const options = [...list.querySelectorAll('[role="option"]')];
    assert.deepEqual(
      options.map((o) => o.textContent),
      ['/fix-tests [glob] — Fix the failing tests', '/fmt — <b>Format</b>'],
    );
    assert.equal(list.querySelector('b'), null, 'a description is text, never markup');
    assert.equal(input.getAttribute('aria-expanded'), 'true');
    key(input, 'ArrowDown');
    assert.equal(input.getAttribute('aria-activedescendant'), options[1]!.id);
    key(input, 'Enter');
    assert.equal(input.value, '/fmt ');
    assert.equal(list.hidden, true);
    assert.equal(t.posted.filter((m) => m.type === 'task/send').length, 0, 'picking a command sends nothing');
    typeText(input, '/fmt src');
    assert.equal(list.hidden, true, 'closed once arguments are typed');
    key(input, 'Enter');
    assert.deepEqual(
      t.posted.filter((m) => m.type === 'task/send').map((m) => (m.type === 'task/send' ? m.text : '')),
      ['/fmt src'],
    );
  });

  it('closes on Escape and shows nothing for text that is no command name', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, commands: COMMANDS } }));
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    const list = q(t.root, '[data-testid="command-list"]');
    typeText(input, '/');
    assert.equal(list.querySelectorAll('[role="option"]').length, 3);
    key(input, 'Escape');
    assert.equal(list.hidden, true);
    typeText(input, 'fix /f');
    assert.equal(list.hidden, true);
    typeText(input, '/zzz');
    assert.equal(list.hidden, true);
  });
  it('opens the list when the commands arrive after "/" was typed in the focused box', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const next = deltas();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    const list = q(t.root, '[data-testid="command-list"]');
    input.focus();
    typeText(input, '/fi');
    assert.equal(list.hidden, true, 'nothing listed yet');
    t.receive(next({ type: 'hints/set', hints: { ...HINTS, commands: COMMANDS } }));
    t.frame();
    assert.equal(list.hidden, false);
    assert.deepEqual(
      [...list.querySelectorAll('[role="option"]')].map((o) => o.querySelector('.command-name')?.textContent),
      ['/fix-tests'],
    );
    input.blur();
    t.receive(next({ type: 'hints/set', hints: { ...HINTS, commands: [...COMMANDS, { name: 'fix-lint' }] } }));
    t.frame();
    input.focus();
    typeText(input, '/fix-l');
    assert.equal(list.hidden, false, 'the later list was taken');
    input.blur();
    t.receive(next({ type: 'hints/set', hints: { ...HINTS, commands: COMMANDS } }));
    t.frame();
    assert.equal(list.hidden, true, 'a box without the keyboard opens nothing');
  });
});
