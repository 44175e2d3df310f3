// The panel a user lives in (issue 15): what an approval card shows whatever the width, where the
// keyboard goes when a card starts waiting, the live status line, queued messages, Retry and the
// welcome of an empty view.
import './dom-env.js';
import assert from 'node:assert/strict';
import type { IntentItem, TranscriptItem } from '../../../src/protocol/index.js';
import { click, key, makeApp, q } from './dom-env.js';
import { deltas, intentItem as anyIntent, snapshot } from './fixtures.js';

const intentItem = (...args: Parameters<typeof anyIntent>) => anyIntent(...args) as IntentItem;

const writeCard = (id: string, summary: string): TranscriptItem => ({
  kind: 'intent',
  id,
  tool: 'write_file',
  summary,
  risk: 'write',
  status: 'awaiting_approval',
  paths: [summary],
});

describe('webview: approval card body', () => {
  it('shows the whole summary of a call without a command in the body, not cut in the header', () => {
    const long = `src/${'deeply/nested/'.repeat(12)}component-with-a-long-name.tsx`;
    const t = makeApp();
    t.receive(snapshot([writeCard('i1', long)], { status: 'waiting_for_approval' }));
    t.frame();
    const card = q(t.root, '[data-testid="intent-card"]');
    const body = q(card, '[data-testid="intent-summary"]');
    assert.equal(body.textContent, long);
    assert.equal(body.hidden, false);
    assert.equal(body.closest('.intent-head'), null, 'the summary is not in the one-line header');
    assert.equal(q(card, '.intent-head').textContent?.includes(long), false);
  });

  it('a command is shown once, whole, instead of its paraphrase', () => {
    const t = makeApp();
    const item: TranscriptItem = { ...intentItem('i1'), tool: 'run_command', summary: 'run tests', command: 'npm test -- --grep "x"' };
    t.receive(snapshot([item], { status: 'waiting_for_approval' }));
    t.frame();
    const card = q(t.root, '[data-testid="intent-card"]');
    assert.equal(q(card, '[data-testid="intent-command"]').textContent, 'npm test -- --grep "x"');
    assert.equal(q(card, '[data-testid="intent-summary"]').hidden, true);
  });

  it('lists the approval keybindings in the waiting card tooltip only', () => {
    const t = makeApp();
    t.receive(snapshot([intentItem('i1')], { status: 'waiting_for_approval' }));
    t.frame();
    const card = q(t.root, '[data-testid="intent-card"]');
    assert.match(card.title, /Approve: Alt\+Shift\+Y.*Reject: Alt\+Shift\+N.*Alt\+Shift\+A/);
    assert.doesNotMatch(card.title, /[⌥⌘]/, 'no macOS symbols on Linux');
    t.receive(deltas()({ type: 'intent/update', id: 'i1', patch: { status: 'running' } }));
    t.frame();
    assert.equal(card.title, '');
  });
});

describe('webview: focus when a card starts waiting', () => {
  function waitFor(t: ReturnType<typeof makeApp>) {
    const d = deltas();
    t.receive(snapshot([], { status: 'running' }));
    t.frame();
    t.receive(d({ type: 'item/add', item: { ...intentItem('i1'), status: 'proposed' } }));
    t.frame();
    t.receive(
      d(
        { type: 'intent/update', id: 'i1', patch: { status: 'awaiting_approval' } },
        { type: 'status/set', status: 'waiting_for_approval' },
      ),
    );
    t.frame();
  }

  it('announces instead when an editor has the keyboard', () => {
    const t = makeApp(undefined, { hasFocus: () => false });
    waitFor(t);
    assert.notEqual(document.activeElement, q(t.root, '[data-testid="approve"]'));
    const live = q(t.root, '[aria-live="assertive"]');
    assert.match(live.textContent ?? '', /^Keel asks for approval: Edit a file: src\/a\.ts/);
  });

  it('does not take the keyboard from a message being typed', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.focus();
    input.value = 'half a thought';
    waitFor(t);
    assert.equal(document.activeElement, input);
    assert.match(q(t.root, '[aria-live="assertive"]').textContent ?? '', /asks for approval/);
  });

  it('announces a card once per wait, and never takes the keyboard on a later update', () => {
    const t = makeApp(undefined, { hasFocus: () => true });
    waitFor(t);
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.focus();
    t.receive(deltas(2)({ type: 'intent/update', id: 'i1', patch: { approvalReason: 'writes a file' } }));
    t.frame();
    assert.equal(document.activeElement, input);
  });
});

describe('webview: live status line', () => {
  it('says it waits for the model, with the elapsed time, until the first token', () => {
    let now = 1_000_000;
    const t = makeApp(undefined, { now: () => now });
    const d = deltas();
    t.receive(snapshot([{ kind: 'user', id: 'u1', text: 'hi' }], { status: 'running', hostNow: now }));
    t.frame();
    const line = q(t.root, '[data-testid="status-line"]');
    const words = q(line, '.status-line-text');
    assert.equal(line.hidden, false);
    assert.equal(words.textContent, 'Waiting for the model · 0s');
    now += 8_200;
    t.receive(d({ type: 'meter/set', meter: snapshot().meter }, { type: 'status/set', status: 'running' }));
    t.frame();
    assert.equal(words.textContent, 'Waiting for the model · 8s');
    t.receive(d({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: 'Hel' } }));
    t.frame();
    assert.equal(line.hidden, true, 'streaming text is its own sign of life');
  });

  it('says which tool runs and for how long (host clock, across skew)', () => {
    let now = 5_000;
    const t = makeApp(undefined, { now: () => now });
    const hostNow = 905_000; // host clock 900 s ahead of ours
    const running: TranscriptItem = { ...intentItem('i1', 'running'), tool: 'run_tests', startedAt: hostNow - 3_000 };
    t.receive(snapshot([running], { status: 'executing', hostNow }));
    t.frame();
    const line = q(t.root, '[data-testid="status-line"]');
    const words = q(line, '.status-line-text');
    assert.equal(words.textContent, 'Running the tests · 3s');
    now += 61_000;
    t.receive(deltas()({ type: 'status/set', status: 'executing' }));
    t.frame();
    assert.equal(words.textContent, 'Running the tests · 1m 4s');
    t.receive(deltas(1)({ type: 'status/set', status: 'waiting_for_approval' }));
    t.frame();
    assert.equal(line.hidden, true, 'a waiting card speaks for itself');
  });
});

describe('webview: a message sent while a run is busy', () => {
  it('is queued, shown as queued, and sent when the run stops', () => {
    const t = makeApp();
    t.receive(snapshot([], { status: 'running' }));
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'also update the README';
    key(input, 'Enter');
    assert.equal(t.posted.filter((m) => m.type === 'task/send').length, 0, 'not sent into a busy run');
    assert.equal(input.value, '');
    const queued = q(t.root, '[data-testid="queued"]');
    assert.equal(queued.hidden, false);
    assert.match(queued.textContent ?? '', /Queued.*also update the README/);
    assert.match(queued.textContent ?? '', /sent when this run ends \(Stop puts it back in the box\)/, 'says what Stop really does');
    t.receive(deltas()({ type: 'status/set', status: 'completed' }));
    t.frame();
    assert.deepEqual(
      t.posted.filter((m) => m.type === 'task/send'),
      [{ type: 'task/send', text: 'also update the README' }],
    );
    assert.equal(queued.hidden, true);
  });

  it('Cancel puts the queued text back into the composer', () => {
    const t = makeApp();
    t.receive(snapshot([], { status: 'executing' }));
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'first';
    key(input, 'Enter');
    input.value = 'second draft';
    click(q(t.root, '[data-testid="queued-cancel"]'));
    assert.equal(input.value, 'first\n\nsecond draft');
    t.receive(deltas()({ type: 'status/set', status: 'completed' }));
    t.frame();
    assert.equal(t.posted.filter((m) => m.type === 'task/send').length, 0);
  });
});

describe('webview: recovering', () => {
  it('a failed run offers Retry beside Show Log', () => {
    const t = makeApp();
    const failed: TranscriptItem = {
      kind: 'notice',
      id: 'n1',
      level: 'error',
      text: 'The model server answered 500',
      action: { label: 'Show Log', message: 'log/show' },
      retry: true,
    };
    t.receive(snapshot([failed], { status: 'failed' }));
    t.frame();
    const notice = q(t.root, '[data-item-id="n1"]');
    const buttons = Array.from(notice.querySelectorAll('button')).map((b) => b.textContent);
    assert.deepEqual(buttons, ['Retry', 'Show Log']);
    click(q(notice, '[data-testid="retry"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'task/retry', noticeId: 'n1' }, 'names the failure it retries');
    // The host retires it (another run started): the button goes.
    t.receive(deltas()({ type: 'item/replace', item: { ...failed, retry: undefined } }));
    t.frame();
    assert.equal(q(t.root, '[data-item-id="n1"]').querySelector('[data-testid="retry"]'), null);
  });
});

describe('webview: a prompt that could not be sent', () => {
  function sendThenFail(answered: boolean) {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'refactor the parser';
    key(input, 'Enter');
    assert.equal(input.value, '');
    const d = deltas();
    t.receive(
      d({ type: 'item/add', item: { kind: 'user', id: 'u1', text: 'refactor the parser' } }, { type: 'status/set', status: 'running' }),
    );
    t.frame();
    if (answered) t.receive(d({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: 'Looking…', done: true } }));
    t.receive(
      d(
        { type: 'item/add', item: { kind: 'notice', id: 'n1', level: 'error', text: 'No API key', retry: true } },
        { type: 'status/set', status: 'failed' },
      ),
    );
    t.frame();
    return { t, input, d };
  }

  it('goes back into the composer when the run failed before any answer', () => {
    const { t, input, d } = sendThenFail(false);
    assert.equal(input.value, 'refactor the parser');
    // Retry sends it again: once the message is in the transcript the composer empties.
    t.receive(
      d({ type: 'item/add', item: { kind: 'user', id: 'u2', text: 'refactor the parser' } }, { type: 'status/set', status: 'running' }),
    );
    t.frame();
    assert.equal(input.value, '');
  });

  it('stays sent when the model had answered', () => {
    const { input } = sendThenFail(true);
    assert.equal(input.value, '');
  });
});

describe('webview: welcome', () => {
  it('an empty view shows the model, whether a key is set, example prompts and shortcuts', () => {
    const t = makeApp();
    t.receive(
      snapshot([], {
        hints: { noApiKey: true, restricted: false, canResume: false, model: { provider: 'anthropic', model: 'claude-x', vision: true } },
      }),
    );
    t.frame();
    const welcome = q(t.root, '[data-testid="welcome"]');
    assert.equal(welcome.hidden, false);
    assert.match(welcome.textContent ?? '', /Model: claude-x \(anthropic\)/);
    assert.match(welcome.textContent ?? '', /No API key is set/);
    assert.match(welcome.textContent ?? '', /Shift\+Enter/);
    const prompts = Array.from(welcome.querySelectorAll('[data-testid="welcome-prompt"]')).map((b) => b.textContent);
    assert.ok(prompts.includes('Fix the failing tests'));
    click(welcome.querySelector('[data-prompt="Fix the failing tests"]')!);
    assert.deepEqual(t.posted.at(-1), { type: 'task/send', text: 'Fix the failing tests' });
  });

  it('goes away once the task has a message', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    t.receive(deltas()({ type: 'item/add', item: { kind: 'user', id: 'u1', text: 'hi' } }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="welcome"]').hidden, true);
  });
});

describe('webview: edit and resend an earlier message', () => {
  it('Edit opens the text, Resend asks the host to fork the task there', () => {
    const t = makeApp();
    t.receive(
      snapshot([
        { kind: 'user', id: 'u3', text: 'fix the parser' },
        { kind: 'assistant', id: 'a4', text: 'Done.', done: true },
      ]),
    );
    t.frame();
    const message = q(t.root, '[data-item-id="u3"]');
    click(q(message, '[data-testid="edit-message"]'));
    const box = q<HTMLTextAreaElement>(message, '[data-testid="edit-message-input"]');
    assert.equal(box.value, 'fix the parser');
    box.value = 'fix the parser and the lexer';
    click(q(message, '[data-testid="resend-message"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'task/fork', messageId: 'u3', text: 'fix the parser and the lexer' });
    assert.equal(message.querySelector('.message-editor'), null, 'the editor closes');
  });

  it("Keel's own request (Fix the Failing Tests) can be edited and resent too", () => {
    const t = makeApp();
    const text = 'Fix the failing tests in this workspace.';
    t.receive(
      snapshot([
        { kind: 'user', id: 'u1', text, keel: 'fix_tests' },
        { kind: 'assistant', id: 'a2', text: 'Working.', done: true },
      ]),
    );
    t.frame();
    const message = q(t.root, '[data-item-id="u1"]');
    click(q(message, '[data-testid="edit-message"]'));
    const box = q<HTMLTextAreaElement>(message, '[data-testid="edit-message-input"]');
    assert.equal(box.value, text, 'the editor holds the words Keel sent');
    box.value = 'Fix only the discount test, please.';
    click(q(message, '[data-testid="resend-message"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'task/fork', messageId: 'u1', text: 'Fix only the discount test, please.' });
  });

  it('Cancel closes the editor and sends nothing', () => {
    const t = makeApp();
    t.receive(snapshot([{ kind: 'user', id: 'u1', text: 'hello' }]));
    t.frame();
    const message = q(t.root, '[data-item-id="u1"]');
    click(q(message, '[data-testid="edit-message"]'));
    const sent = t.posted.length;
    click(q(message, '[data-action="cancel-edit"]'));
    assert.equal(message.querySelector('.message-editor'), null);
    assert.equal(t.posted.length, sent);
  });
});

describe('webview: finished reads grouped into one line', () => {
  // A finished read's result says what it established (the presenter takes it from the facts).
  const established = (tool: string) => ({ ok: true, summary: 'ok', read: tool === 'read_file' ? ('file' as const) : ('search' as const) });
  const read = (id: string, tool: string, status: 'done' | 'running' = 'done'): TranscriptItem => ({
    kind: 'intent',
    id,
    tool,
    summary: `${tool} ${id}`,
    risk: 'read',
    status,
    ...(status === 'done' ? { result: established(tool) } : {}),
  });

  it('folds a run of finished reads into "Read N files, searched M times" that opens on click', () => {
    const t = makeApp();
    t.receive(
      snapshot([
        { kind: 'user', id: 'u1', text: 'look around' },
        read('r1', 'read_file'),
        read('r2', 'read_file'),
        read('r3', 'search_files'),
        { kind: 'assistant', id: 'a1', text: 'Now one more.', done: true },
        read('r4', 'read_file'),
      ]),
    );
    t.frame();
    const rows = Array.from(t.root.querySelectorAll<HTMLElement>('[data-testid="read-group"]'));
    assert.equal(rows.length, 1, 'a single read is not grouped');
    assert.equal(rows[0]!.textContent?.trim(), 'Read 2 files, searched 1 time');
    const card = (id: string) => q(t.root, `[data-intent-id="${id}"][data-testid="intent-card"]`);
    assert.ok(card('r1').classList.contains('read-grouped'));
    assert.ok(!card('r4').classList.contains('read-grouped'));
    click(rows[0]!);
    const open = q(t.root, '[data-testid="read-group"]');
    assert.equal(open.getAttribute('aria-expanded'), 'true');
    assert.ok(!card('r1').classList.contains('read-grouped'), 'opened: the cards show');
  });

  it('a read still running is not folded; it joins the group once done', () => {
    const t = makeApp();
    t.receive(snapshot([read('r1', 'read_file'), read('r2', 'read_file', 'running')], { status: 'executing' }));
    t.frame();
    assert.equal(t.root.querySelector('[data-testid="read-group"]'), null);
    t.receive(deltas()({ type: 'intent/update', id: 'r2', patch: { status: 'done', result: established('read_file') } }));
    t.frame();
    assert.equal(q(t.root, '[data-testid="read-group"]').textContent?.trim(), 'Read 2 files');
  });
});
