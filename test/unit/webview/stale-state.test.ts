// Nothing stale (issue 34 #13): a warning about images goes once they are sent, a prompt put back
// after a failure stays with its task, a spent Undo says so, a to-do item is not "in progress"
// once the run ended, a server that needs no key is not told one is "set", and a task whose run
// ended is not claimed "done".
import './dom-env.js';
import assert from 'node:assert/strict';
import { click, key, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';
import type { TranscriptItem } from '../../../src/protocol/index.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function paste(input: HTMLElement, bytes: Uint8Array): void {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  const file = { arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) };
  Object.defineProperty(event, 'clipboardData', { value: { files: [file] } });
  input.dispatchEvent(event);
}

describe('webview: no stale state', () => {
  it('drops the text-only warning once the image it was about is sent', async () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, model: { provider: 'openai', model: 'llama3', vision: false } } }));
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    paste(input, PNG);
    await settle();
    const notice = q(t.root, '.attachment-notice');
    assert.match(notice.textContent ?? '', /does not read images/);
    input.value = 'what is this';
    key(input, 'Enter');
    await settle();
    assert.ok(t.posted.some((m) => m.type === 'task/send'));
    assert.equal(notice.textContent, '', 'no image left to warn about');
    assert.equal(notice.hidden, true);
  });

  it('keeps a prompt put back after a failed run with its task, not the next one shown', () => {
    const t = makeApp();
    t.receive(snapshot([], { taskId: 'a' }));
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'refactor the parser';
    key(input, 'Enter');
    const d = deltas();
    t.receive(
      d({ type: 'item/add', item: { kind: 'user', id: 'u1', text: 'refactor the parser' } }, { type: 'status/set', status: 'running' }),
    );
    t.frame();
    t.receive(
      d(
        { type: 'item/add', item: { kind: 'notice', id: 'n1', level: 'error', text: 'boom', retry: true } },
        { type: 'status/set', status: 'failed' },
      ),
    );
    t.frame();
    assert.equal(input.value, 'refactor the parser', 'put back in its own task');
    t.receive(snapshot([], { taskId: 'b' }));
    t.frame();
    assert.equal(input.value, '', 'another task does not inherit it');
  });

  it('shows a spent Undo all changes as undone, taking no click', () => {
    const changes = (undone: boolean): TranscriptItem => ({
      kind: 'changes',
      id: 's9',
      fromSeq: 4,
      toSeq: 8,
      files: [{ path: 'src/a.ts', change: 'modified' }],
      ...(undone ? { undone: true } : {}),
    });
    const t = makeApp();
    t.receive(snapshot([changes(false)]));
    t.frame();
    assert.equal(q<HTMLButtonElement>(t.root, '[data-testid="undo-run"]').disabled, false);
    t.receive(deltas()({ type: 'item/replace', item: changes(true) }));
    t.frame();
    const undo = q<HTMLButtonElement>(t.root, '[data-testid="undo-run"]');
    assert.equal(undo.disabled, true);
    assert.equal(undo.textContent, 'Changes undone');
    click(undo);
    assert.equal(t.posted.filter((m) => m.type === 'checkpoint/restore').length, 0);
  });

  it('does not leave a to-do item "in progress" once the run ended', () => {
    const todos = [
      { id: '1', text: 'Read it', status: 'done' as const },
      { id: '2', text: 'Fix it', status: 'in_progress' as const },
    ];
    const t = makeApp();
    t.receive(snapshot([], { status: 'running', hints: { ...HINTS, todos } }));
    t.frame();
    const item = () => [...t.root.querySelectorAll<HTMLElement>('[data-testid="todo-item"]')][1]!;
    assert.match(item().textContent ?? '', /\(in progress\)/);
    t.receive(deltas()({ type: 'status/set', status: 'cancelled' }));
    t.frame();
    assert.doesNotMatch(item().textContent ?? '', /in progress/);
    assert.match(item().textContent ?? '', /not finished when the run ended/);
  });

  it('says no key is needed for a server that needs none, not "API key set."', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, keyNotNeeded: true } }));
    t.frame();
    const welcome = q(t.root, '[data-testid="welcome"]');
    assert.doesNotMatch(welcome.textContent ?? '', /API key set/);
    assert.match(welcome.textContent ?? '', /No API key needed/);
  });

  it('says nothing about the key before its lookup answers (the first view after a reload)', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, keyUnread: true } }));
    t.frame();
    const keyLine = q(t.root, '.welcome-key');
    assert.equal(keyLine.hidden, true, 'the key line waits for the lookup');
    t.receive(deltas()({ type: 'hints/set', hints: { ...HINTS, noApiKey: true, keyUnread: false } }));
    t.frame();
    assert.ok(!keyLine.closest('[hidden]'), 'then it says what the lookup found');
    assert.match(keyLine.textContent ?? '', /No API key is set/);
  });

  it('does not call a task whose run ended "done": the model may have given up', () => {
    const t = makeApp();
    t.receive(snapshot([], { tasks: { tasks: [{ id: 'a', title: 'Fix it', updatedAt: Date.now(), status: 'completed' }] } }));
    t.frame();
    const meta = q(t.root, '[data-testid="task-item"] .task-meta').textContent ?? '';
    assert.doesNotMatch(meta, /\bdone\b/);
    assert.match(meta, /^ended · /);
  });
});
