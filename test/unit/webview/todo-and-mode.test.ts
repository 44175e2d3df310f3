// The pinned to-do list and the header's mode picker: the list shows above the composer, ticked
// when done, as a list whose items say their state in words; the picker sends the next message
// in the chosen mode and follows the task's mode from the hints.
import './dom-env.js';
import assert from 'node:assert/strict';
import { click, key, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };
const TODOS = [
  { id: '1', text: 'Read the parser', status: 'done' as const },
  { id: '2', text: 'Handle exponents', status: 'in_progress' as const },
  { id: '3', text: '<b>Add a test</b>', status: 'pending' as const },
];

describe('webview: the pinned to-do list', () => {
  it('shows the list above the composer, ticked when done, each item with its state in words', () => {
    const t = makeApp();
    t.receive(snapshot([], { status: 'running' }));
    t.frame();
    const pin = q(t.root, '[data-testid="todo-pin"]');
    assert.equal(pin.hidden, true, 'no list, nothing pinned');
    t.receive(deltas()({ type: 'hints/set', hints: { ...HINTS, todos: TODOS } }));
    t.frame();
    assert.equal(pin.hidden, false);
    assert.equal(pin.getAttribute('aria-label'), 'To-do list');
    assert.ok(pin.compareDocumentPosition(q(t.root, '[data-testid="input"]')) & Node.DOCUMENT_POSITION_FOLLOWING, 'above the composer');
    const items = [...pin.querySelectorAll<HTMLElement>('ol > li[data-testid="todo-item"]')];
    assert.deepEqual(
      items.map((i) => i.textContent),
      ['Read the parser (done)', 'Handle exponents (in progress)', '<b>Add a test</b> (pending)'],
    );
    assert.ok(items[0]!.querySelector('.codicon-pass-filled'), 'the done item is ticked');
    assert.equal(pin.querySelector('b'), null, 'item text is text, never markup');
    assert.match(pin.textContent ?? '', /1 of 3 done/);
  });

  it('follows the list as the model rewrites it, and hides when a task has none', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, todos: TODOS } }));
    t.frame();
    const next = deltas();
    t.receive(next({ type: 'hints/set', hints: { ...HINTS, todos: TODOS.map((x) => ({ ...x, status: 'done' as const })) } }));
    t.frame();
    const pin = q(t.root, '[data-testid="todo-pin"]');
    assert.equal(pin.querySelectorAll('li[data-status="done"]').length, 3);
    assert.match(pin.textContent ?? '', /3 of 3 done/);
    t.receive(next({ type: 'hints/set', hints: HINTS }));
    t.frame();
    assert.equal(pin.hidden, true);
  });
});

describe('webview: approving a plan', () => {
  it('offers Approve plan for a Plan task’s list once its run ended; a click asks the host', () => {
    const t = makeApp();
    t.receive(snapshot([], { status: 'running', hints: { ...HINTS, mode: 'plan', todos: TODOS } }));
    t.frame();
    const approve = q(t.root, '[data-testid="approve-plan"]');
    assert.equal(approve.hidden, true, 'not while the plan is being written');
    t.receive(deltas()({ type: 'status/set', status: 'completed' }));
    t.frame();
    assert.equal(approve.hidden, false);
    click(approve);
    assert.deepEqual(t.posted.at(-1), { type: 'plan/approve' });
  });

  it('offers nothing in Agent mode: the list is a to-do list, not a plan', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, mode: 'agent', todos: TODOS } }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="approve-plan"]').hidden, true);
  });
});

describe('webview: the mode picker', () => {
  it('sends the next message in the chosen mode, and nothing extra in the task’s own mode', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const picker = q<HTMLSelectElement>(t.root, '[data-testid="mode-picker"]');
    assert.equal(picker.getAttribute('aria-label'), 'Mode');
    assert.deepEqual(
      [...picker.options].map((o) => o.value),
      ['agent', 'plan', 'ask'],
    );
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'look around';
    key(input, 'Enter');
    assert.deepEqual(t.posted.at(-1), { type: 'task/send', text: 'look around' });
    picker.value = 'plan';
    input.value = 'plan the fix';
    key(input, 'Enter');
    assert.deepEqual(t.posted.at(-1), { type: 'task/send', text: 'plan the fix', mode: 'plan' });
  });

  it('shows the task’s mode from the hints (a reloaded task in Plan shows Plan)', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, mode: 'plan' } }));
    t.frame();
    const picker = q<HTMLSelectElement>(t.root, '[data-testid="mode-picker"]');
    assert.equal(picker.value, 'plan');
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'go on';
    key(input, 'Enter');
    assert.deepEqual(t.posted.at(-1), { type: 'task/send', text: 'go on' }, 'already the task’s mode: no change sent');
  });
});

describe("webview: Keel's own prompts", () => {
  it('shows a Keel request as a compact, expandable line, not as the user’s message', () => {
    const t = makeApp();
    const text = 'Fix the failing tests in this workspace.\n\n1. Run the tests with `npm test`.';
    t.receive(
      snapshot([
        { kind: 'user', id: 'u1', text, keel: 'fix_tests' },
        { kind: 'user', id: 'u2', text: 'mine' },
      ]),
    );
    t.frame();
    const keel = q(t.root, '[data-testid="keel-prompt"]');
    assert.equal(keel.tagName, 'DETAILS', 'expandable');
    assert.equal(keel.querySelector('summary')?.textContent, 'Keel: Fix the Failing Tests');
    assert.match(keel.textContent ?? '', /Run the tests with/);
    const mine = [...t.root.querySelectorAll('[data-testid="user-message"]')];
    assert.deepEqual(
      mine.map((m) => m.getAttribute('data-item-id')),
      ['u2'],
      'only what the user typed reads as theirs',
    );
  });
});
