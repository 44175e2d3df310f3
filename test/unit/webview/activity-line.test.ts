// Issue 34, problem 2: the activity line is never silent while Keel works. Fed through the real
// presenter (kernel outputs → deltas) into the real webview: while a call's input streams it says
// "Writing src/app.ts · 3.1 kB" with the time; while a command runs, "Running npm test · 12s";
// when the stream is silent, "No data from the model for 20s" with Stop and Retry; a stream that
// is cut keeps its text, marked as cut.
import './dom-env.js';
import assert from 'node:assert/strict';
import type { RuntimeEventInput, RuntimeOutput } from '../../../src/kernel/contracts/index.js';
import type { HostMessage } from '../../../src/protocol/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { EventFactory } from '../presenter/events.js';
import { FakeClock } from '../presenter/fake-clock.js';
import { click, makeApp, q } from './dom-env.js';

/** The host's presenter and the webview, wired as in VS Code; the webview's clock is the test's. */
function panel() {
  const f = new EventFactory();
  const clock = new FakeClock();
  let now = 1_000_000;
  const t = makeApp(undefined, { now: () => now });
  const presenter = new Presenter({ clock, post: (m: HostMessage) => t.receive(m), kernel: () => f.state });
  presenter.setToolKinds((tool) => (tool === 'write_file' ? 'edit' : tool === 'run_command' ? 'command' : undefined));
  presenter.postSnapshot();
  const feed = (...outs: (RuntimeEventInput | RuntimeOutput)[]) => {
    for (const o of outs) presenter.handle('kind' in o ? (o as RuntimeOutput) : f.out(o));
    clock.advance(20);
    t.frame();
  };
  const line = q(t.root, '[data-testid="status-line"]');
  const words = () => (line.hidden ? '' : (q(line, '.status-line-text').textContent ?? ''));
  const later = (ms: number) => {
    now += ms;
    clock.advance(ms);
    (t.app as unknown as { tick(n: number): void }).tick(now);
  };
  return { f, t, feed, line, words, later, presenter };
}

const input = (bytes: number, path?: string): RuntimeOutput => ({
  kind: 'activity',
  activity: { type: 'tool_input', call: 0, tool: 'write_file', bytes, ...(path ? { path } : {}) },
});

describe('webview: the activity line (issue 34)', () => {
  it('says what a streaming tool call writes, how big it is so far, and for how long', () => {
    const { feed, words, later } = panel();
    feed(
      { type: 'user_message', text: 'write the app' },
      { type: 'run_started', provider: 'p', model: 'm' },
      { type: 'turn_started', turn: 1 },
    );
    assert.equal(words(), 'Waiting for the model · 0s');
    feed({ type: 'text_delta', text: 'Here it is.' });
    assert.equal(words(), '', 'streamed text is its own sign of life');
    feed(input(40));
    assert.equal(words(), 'Writing a file · 40 B · 0s', 'the text is done streaming; the call is not silent');
    feed(input(3_100, 'src/app.ts'));
    later(12_000);
    assert.equal(words(), 'Writing src/app.ts · 3.1 kB · 12s');
    feed({ type: 'model_final', stopReason: 'tool_intent' });
    assert.notEqual(words(), 'Writing src/app.ts · 3.1 kB · 12s', 'the call is whole: the line moves on');
  });

  it('says which command runs, with the time', () => {
    const { f, feed, words, later } = panel();
    const intent = { ...f.intent('i1'), command: 'npm test' };
    feed({ type: 'user_message', text: 'test' }, { type: 'run_started', provider: 'p', model: 'm' }, { type: 'intent_proposed', intent });
    feed({ type: 'intent_approved', intentId: 'i1', scope: 'once', auto: true }, { type: 'intent_started', intentId: 'i1' });
    later(12_000);
    assert.equal(words(), 'Running npm test · 12s');
  });

  it('tells a silent stream apart, with Stop and Retry, until a byte comes', () => {
    const { t, feed, words, later, line } = panel();
    feed({ type: 'user_message', text: 'go' }, { type: 'run_started', provider: 'p', model: 'm' }, { type: 'turn_started', turn: 1 });
    feed({ kind: 'activity', activity: { type: 'stalled', silentMs: 20_000 } });
    assert.equal(words(), 'No data from the model for 20s');
    assert.ok(line.classList.contains('stalled'));
    later(5_000);
    assert.equal(words(), 'No data from the model for 25s', 'the silence is counted on');
    click(q(line, '[data-testid="stall-retry"]'));
    click(q(line, '[data-testid="stall-stop"]'));
    assert.deepEqual(
      t.posted.filter((m) => m.type === 'turn/retry' || m.type === 'task/stop'),
      [{ type: 'turn/retry' }, { type: 'task/stop' }],
    );
    feed({ type: 'text_delta', text: 'Back.' });
    assert.equal(line.hidden, true, 'a byte came: no notice');
  });

  it('keeps the text of a cut stream, marked as cut, when the turn is retried', () => {
    const { t, feed } = panel();
    feed({ type: 'user_message', text: 'go' }, { type: 'run_started', provider: 'p', model: 'm' }, { type: 'turn_started', turn: 1 });
    feed({ type: 'text_delta', text: 'The first half of an answer' });
    feed({ type: 'turn_retry', attempt: 1, delayMs: 1000, error: { kind: 'network', message: 'connection reset', retryable: true } });
    const cut = q(t.root, '[data-testid="assistant-text"]');
    assert.match(cut.textContent ?? '', /The first half of an answer/);
    assert.match(q(cut, '.cut-mark').textContent ?? '', /stream was cut here/);
    feed({ type: 'turn_started', turn: 1 }, { type: 'text_delta', text: 'The whole answer.' }, { type: 'model_final', stopReason: 'stop' });
    const texts = [...t.root.querySelectorAll('[data-testid="assistant-text"]')].map((e) => e.textContent ?? '');
    assert.equal(texts.length, 2, 'the cut text and the retried one');
    assert.equal(texts[1]!.trim(), 'The whole answer.', 'the retried text, not marked');
  });

  it('keeps the text of a stream that failed for good, marked as cut', () => {
    const { t, feed } = panel();
    feed({ type: 'user_message', text: 'go' }, { type: 'run_started', provider: 'p', model: 'm' }, { type: 'turn_started', turn: 1 });
    feed({ type: 'text_delta', text: 'Almost there' });
    const error = { kind: 'network' as const, message: 'The model sent nothing for 180 s.', retryable: true };
    feed({ type: 'model_error', error }, { type: 'run_failed', error: { kind: 'network', message: error.message } });
    const said = q(t.root, '[data-testid="assistant-text"]');
    assert.match(said.textContent ?? '', /Almost there/);
    assert.ok(said.querySelector('.cut-mark'), 'marked as cut');
    assert.ok(q(t.root, '[data-testid="retry"]'), 'the failure offers Retry');
  });
});
