// Issue 21 #7 and #12: Retry is offered on the latest failure only, sends the message that
// started the failed run, and runs with the settings as they are now (a fixed base URL, another
// model); the meter's window follows a model switched in the settings; a context overflow, which
// the same request would meet again, offers no Retry.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Registry, Runtime, type ModelEvent } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import type { HostMessage, SessionSnapshot, TranscriptItem } from '../../../src/protocol/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';
import { EventFactory } from '../presenter/events.js';

const failing = (message: string): ModelEvent[] => [{ type: 'error', error: { kind: 'network', message, retryable: false } }];

/** A session whose runtimes are built from `settings` as they are when the runtime is built. */
function world() {
  const settings = { baseUrl: 'http://old.invalid', window: 200_000 };
  const used: string[] = [];
  const sent: string[] = [];
  const posted: HostMessage[] = [];
  const tasks = new TaskStore({
    dir: scratchDir('session-retry21'),
    logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: ({ events, store }) => {
      const baseUrl = settings.baseUrl;
      const provider = new ScriptedProvider((request) => {
        used.push(baseUrl);
        const last = request.messages.at(-1);
        sent.push(last?.role === 'user' ? last.text : '');
        return baseUrl === 'http://old.invalid' ? failing('ECONNREFUSED old.invalid') : textTurn('Done.');
      });
      return new Runtime({ provider, registry: new Registry(), store, events });
    },
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const session: Session = new Session({
    tasks,
    post: (m) => posted.push(m),
    keyMissing: async () => false,
    trusted: () => true,
    model: () => ({ contextWindow: settings.window, price: undefined }),
    focusIntent: async () => false,
    watch: () => () => undefined,
    setContext: () => undefined,
    log: { info() {}, warn() {}, error() {} },
  });
  return { settings, tasks, session, used, sent, posted };
}

const lastSnapshot = (posted: HostMessage[]) => posted.filter((m): m is SessionSnapshot => m.type === 'session/snapshot').at(-1)!;

describe('host/session: Retry (issue 21 #7)', () => {
  it('runs with the base URL as it is now, not the one the task was opened with', async () => {
    const w = world();
    await w.tasks.init();
    const task = await w.session.send('Fix the tests');
    await task.idle();
    assert.equal(task.getState().status, 'failed');
    w.settings.baseUrl = 'http://fixed.invalid';
    await w.session.settingsChanged();
    await w.session.retry();
    const now = w.session.current!;
    await now.idle();
    assert.equal(now.getState().status, 'completed');
    assert.deepEqual(w.used, ['http://old.invalid', 'http://fixed.invalid']);
  });

  it('sends the message of the failed run, and refuses an older failure', async () => {
    const w = world();
    await w.tasks.init();
    const task = await w.session.send('first message');
    await task.idle();
    const firstFailure = task.getEvents().findLast((e) => e.type === 'run_failed')!;
    await w.session.send('second message');
    await task.idle();
    const secondFailure = task.getEvents().findLast((e) => e.type === 'run_failed')!;
    await w.session.retry(`n${firstFailure.seq}`);
    await task.idle();
    assert.equal(w.sent.length, 2, 'an older failure is not retried');
    await w.session.retry(`n${secondFailure.seq}`);
    await task.idle();
    assert.deepEqual(w.sent, ['first message', 'second message', 'second message']);
  });
});

describe('host/session: the meter follows the model (issue 21 #12)', () => {
  it('shows the new window once the settings switch to a 128k model', async () => {
    const w = world();
    w.settings.baseUrl = 'http://fixed.invalid';
    await w.tasks.init();
    const task = await w.session.send('hello');
    await task.idle();
    await w.session.ready();
    assert.equal(lastSnapshot(w.posted).meter.windowTokens, 200_000);
    w.settings.window = 128_000;
    await w.session.settingsChanged();
    await w.session.ready();
    assert.equal(lastSnapshot(w.posted).meter.windowTokens, 128_000);
  });
});

describe('host/session: Keel’s own question (issue 21 #10)', () => {
  it('tells the view while the dialog is open, and clears it after the answer (or a failure)', async () => {
    const w = world();
    const hints = () => w.posted.flatMap((m) => (m.type === 'transcript/delta' ? m.ops : [])).filter((o) => o.type === 'hints/set');
    const answer = await w.session.asking('Send your key to http://127.0.0.1:9?', async () => {
      w.session.presenter.flush();
      assert.equal(hints().at(-1)?.type === 'hints/set' && hints().at(-1)?.hints.question, 'Send your key to http://127.0.0.1:9?');
      return 'Send Key';
    });
    w.session.presenter.flush();
    assert.equal(answer, 'Send Key');
    const last = hints().at(-1);
    assert.equal(last?.type === 'hints/set' ? last.hints.question : 'none', undefined);
    await assert.rejects(w.session.asking('again?', async () => Promise.reject(new Error('closed'))));
    w.session.presenter.flush();
    const after = hints().at(-1);
    assert.equal(after?.type === 'hints/set' ? after.hints.question : 'none', undefined);
  });
});

describe('presenter: Retry on failures (issue 21 #7)', () => {
  const notices = (items: TranscriptItem[]) => items.filter((i) => i.kind === 'notice');

  it('offers Retry on the latest failure only: an older one loses it when the next run starts', () => {
    const f = new EventFactory();
    const p = new Presenter({ post: () => undefined, kernel: () => f.state });
    const fail = () => f.out({ type: 'run_failed', error: { kind: 'network', message: 'down' } });
    p.handle(f.out({ type: 'user_message', text: 'one' }));
    p.handle(f.out({ type: 'run_started', provider: 'scripted', model: 'm' }));
    p.handle(fail());
    assert.deepEqual(
      notices(p.items()).map((n) => n.kind === 'notice' && n.retry),
      [true],
    );
    p.handle(f.out({ type: 'user_message', text: 'two' }));
    p.handle(f.out({ type: 'run_started', provider: 'scripted', model: 'm' }));
    assert.deepEqual(
      notices(p.items()).map((n) => n.kind === 'notice' && (n.retry ?? false)),
      [false],
      'a new run retires the old Retry',
    );
    p.handle(fail());
    assert.deepEqual(
      notices(p.items()).map((n) => n.kind === 'notice' && (n.retry ?? false)),
      [false, true],
    );
  });

  it('offers no Retry on a context overflow (the same request would overflow again)', () => {
    const f = new EventFactory();
    const p = new Presenter({ post: () => undefined, kernel: () => f.state });
    p.handle(f.out({ type: 'user_message', text: 'one' }));
    p.handle(f.out({ type: 'run_started', provider: 'scripted', model: 'm' }));
    p.handle(f.out({ type: 'run_failed', error: { kind: 'context_overflow', message: 'prompt is too long' } }));
    const notice = notices(p.items())[0];
    assert.equal(notice?.kind === 'notice' && notice.retry, undefined);
  });
});
