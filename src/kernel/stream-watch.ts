// The infer step's watchdog over a model stream. Every event the provider yields (text, reasoning,
// a tool call's input growing) counts as a sign of life. After `stallMs` of silence the host is
// told the stream has stalled (the view offers Stop and Retry); a sign of life clears it. After
// `idleTimeoutMs` of silence the stream is abandoned and the turn ends with a retryable error, so
// a dead connection never holds a run for ever. The user's Retry abandons it at once and the turn
// is streamed again. Kept in the kernel rather than in each adapter: one clock for every provider.
import type { RuntimeOptions } from './runtime-options.js';
import { realTimers, type Timers } from './contracts/timers.js';

/** Silence before the stall notice, and before the stream is given up. */
const STREAM_WATCH_DEFAULTS = { stallMs: 20_000, idleTimeoutMs: 180_000 } as const;

/** Why a watched read did not come back with an event. */
export type WatchEnd = { type: 'idle'; silentMs: number } | { type: 'restart' };

interface WatchSettings {
  stallMs: number;
  idleTimeoutMs: number;
  timers: Timers;
  now: () => number;
}

/** One per runtime: it watches the stream being read now, so the user's Retry can reach it. */
export class StreamWatcher {
  private current: WatchedStream | undefined;

  constructor(private readonly settings: WatchSettings) {}

  static from(o: Pick<RuntimeOptions, 'timers' | 'streamWatch' | 'now'>): StreamWatcher {
    return new StreamWatcher({
      stallMs: o.streamWatch?.stallMs ?? STREAM_WATCH_DEFAULTS.stallMs,
      idleTimeoutMs: o.streamWatch?.idleTimeoutMs ?? STREAM_WATCH_DEFAULTS.idleTimeoutMs,
      timers: o.timers ?? realTimers,
      now: o.now ?? Date.now,
    });
  }

  /** Starts watching a stream read under `parent`; `onStall` hears each silence that passed stallMs. */
  watch(parent: AbortSignal, onStall: (silentMs: number) => void): WatchedStream {
    const stream = new WatchedStream(this.settings, parent, onStall, () => {
      if (this.current === stream) this.current = undefined;
    });
    this.current = stream;
    return stream;
  }

  /** The user's Retry on a stalled stream: abandons it and streams the turn again. False when no stream is read now. */
  restart(): boolean {
    return this.current?.end({ type: 'restart' }) ?? false;
  }
}

export class WatchedStream {
  /** What the provider is given: aborted with the run, or when this stream is abandoned. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly unlink: () => void;
  /** When silence started counting (the last sign of life, or the end of an expected quiet). */
  private since: number;
  private stalled = false;
  private timer: unknown;
  /** Set once the watch is over: why the stream was abandoned, or 'done' when it ended by itself. */
  private ended: WatchEnd | 'done' | undefined;
  /** The pending read's answer and failure, while one is pending. */
  private wake: ((value: unknown) => void) | undefined;
  private fail: ((err: unknown) => void) | undefined;

  constructor(
    private readonly s: WatchSettings,
    parent: AbortSignal,
    private readonly onStall: (silentMs: number) => void,
    private readonly onDone: () => void,
  ) {
    this.signal = this.controller.signal;
    const forward = () => this.controller.abort(parent.reason);
    parent.addEventListener('abort', forward, { once: true });
    this.unlink = () => parent.removeEventListener('abort', forward);
    this.since = s.now();
    this.arm(s.stallMs);
  }

  /**
   * `read` settles, or the watch ends it first (idle, or the user's Retry). Called once per event
   * of the stream, so it allocates one promise, no race and no closure of its own: the read's
   * handlers are the stream's, and the watch's end resolves the same promise.
   */
  race<T>(read: Promise<T>): Promise<T | WatchEnd> {
    if (this.ended && this.ended !== 'done') return Promise.resolve(this.ended);
    return new Promise<T | WatchEnd>((resolve, reject) => {
      this.wake = resolve as (value: unknown) => void;
      this.fail = reject;
      read.then(this.onRead, this.onReadError);
    });
  }

  /** The read settled first; after the watch ended the stream, its late answer is dropped. */
  private readonly onRead = (value: unknown): void => {
    const wake = this.wake;
    this.settle();
    wake?.(value);
  };

  private readonly onReadError = (err: unknown): void => {
    const fail = this.wake ? this.fail : undefined;
    this.settle();
    fail?.(err);
  };

  private settle(): void {
    this.wake = undefined;
    this.fail = undefined;
  }

  /**
   * A sign of life; `quietMs`: silence expected next (a provider's retry waits that long first).
   * O(1) per event: the one timer is not moved, it checks the time when it fires.
   */
  heard(quietMs = 0): void {
    this.since = this.s.now() + quietMs;
    this.stalled = false;
  }

  /** Stops watching; with a reason, abandons the stream (its request is aborted). True when it was still watched. */
  end(reason?: WatchEnd): boolean {
    if (this.ended) return false;
    this.ended = reason ?? 'done';
    if (this.timer !== undefined) this.s.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.unlink();
    this.onDone();
    if (reason) {
      this.controller.abort();
      const wake = this.wake;
      this.settle();
      wake?.(reason);
    }
    return true;
  }

  private arm(ms: number): void {
    this.timer = this.s.timers.setTimeout(() => this.check(), Math.max(1, ms));
  }

  /** The timer fired: a stall to tell, a stream to give up, or a later time to look again. */
  private check(): void {
    this.timer = undefined;
    if (this.ended) return;
    const silent = this.s.now() - this.since;
    if (silent >= this.s.idleTimeoutMs) {
      this.end({ type: 'idle', silentMs: silent });
      return;
    }
    if (silent >= this.s.stallMs && !this.stalled) {
      this.stalled = true;
      this.onStall(silent);
    }
    this.arm((this.stalled ? this.s.idleTimeoutMs : this.s.stallMs) - silent);
  }
}
