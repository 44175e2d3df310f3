// The host side of the webview bench: the real Presenter and its OpScheduler on a fake clock.
// It measures the bytes posted per text delta, and it records what the host really posts for a
// stream of model deltas (and when), so the page is fed the host's cadence, not raw deltas.
import type { RuntimeEvent, RuntimeEventInput } from '../src/kernel/contracts/index.js';
import { applyEvent, initialState } from '../src/kernel/index.js';
import type { HostMessage } from '../src/protocol/index.js';
import { Presenter, type SchedulerClock } from '../src/host/presenter/index.js';

/** One post of the host: when (ms after the first model delta) and how many deltas it covers. */
export interface HostPost {
  at: number;
  deltasCovered: number;
  message: HostMessage;
}

interface Host {
  presenter: Presenter;
  posts: { at: number; message: HostMessage }[];
  ev(e: RuntimeEventInput): RuntimeEvent;
  advance(ms: number): void;
  now(): number;
}

function fakeHost(): Host {
  let time = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: SchedulerClock = {
    now: () => time,
    setTimeout: (fn, ms) => {
      timers.set(++nextId, { at: time + ms, fn });
      return nextId;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  const posts: { at: number; message: HostMessage }[] = [];
  // The kernel's state, folded as the runtime folds it: the presenter reads status and usage there.
  let state = initialState();
  const presenter = new Presenter({
    clock,
    post: (m) => posts.push({ at: time, message: m }),
    kernel: () => state,
    contextWindow: 200_000,
  });
  let seq = 0;
  return {
    presenter,
    posts,
    now: () => time,
    ev: (e) => {
      const event = { ...e, seq: ++seq, runId: 'r', time } as RuntimeEvent;
      state = applyEvent(state, event);
      return event;
    },
    advance: (ms) => {
      const until = time + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        time = Math.max(time, due[1].at);
        due[1].fn();
      }
      time = until;
    },
  };
}

export function bytesPerDelta(messages: number): number {
  const host = fakeHost();
  const log: RuntimeEvent[] = [];
  for (let i = 0; i < messages / 2; i++) {
    log.push(host.ev({ type: 'user_message', text: `question ${i}` }), host.ev({ type: 'turn_started', turn: 1 }));
    log.push(host.ev({ type: 'text_delta', text: `answer ${i}` }), host.ev({ type: 'model_final', stopReason: 'stop' }));
  }
  host.presenter.load(log);
  host.presenter.postSnapshot();
  host.posts.length = 0;
  host.presenter.handle({ kind: 'event', event: host.ev({ type: 'turn_started', turn: 1 }) });
  const deltas = 2000;
  for (let i = 0; i < deltas; i++) {
    host.presenter.handle({ kind: 'event', event: host.ev({ type: 'text_delta', text: 'tok ' }) });
    host.advance(2); // 500 deltas per second
  }
  host.advance(100);
  return host.posts.reduce((sum, p) => sum + JSON.stringify(p.message).length, 0) / deltas;
}

/**
 * `count` model text deltas at `rate` per second through the Presenter and its OpScheduler:
 * the transcript deltas the host posts for them, with their times and the model deltas each
 * covers (seqs are renumbered from `startSeq + 1`, as the page's transcript already has startSeq).
 */
export function hostStream(chunks: readonly string[], count: number, rate: number, startSeq: number): HostPost[] {
  const host = fakeHost();
  host.presenter.postSnapshot();
  host.presenter.handle({ kind: 'event', event: host.ev({ type: 'user_message', text: 'go' }) });
  host.presenter.handle({ kind: 'event', event: host.ev({ type: 'turn_started', turn: 1 }) });
  host.advance(100);
  host.posts.length = 0;
  const start = host.now();
  const out: HostPost[] = [];
  let fed = 0;
  const collect = (): void => {
    for (const p of host.posts.splice(0)) {
      if (p.message.type !== 'transcript/delta') continue;
      const message = { ...p.message, seq: startSeq + out.length + 1 };
      out.push({ at: p.at - start, deltasCovered: fed, message });
    }
  };
  for (let i = 0; i < count; i++) {
    // A post made while advancing the clock covers the deltas fed before it.
    host.advance(i === 0 ? 0 : 1000 / rate);
    collect();
    host.presenter.handle({ kind: 'event', event: host.ev({ type: 'text_delta', text: chunks[i % chunks.length]! }) });
    fed = i + 1;
    collect();
  }
  host.advance(100);
  collect();
  return out;
}
