// The retry policy: when a failed turn is worth another attempt, and how long to wait.
// The SDKs' own retries are off, so every retry is ours and shown to the user.
import { type ModelError, realTimers, type Timers } from '../kernel/contracts/index.js';

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A server asking us to wait longer than this is not retried: the user decides. */
  maxRetryAfterMs?: number;
  /** Injectable for tests; must resolve (not reject) early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

export type RetrySettings = Required<RetryOptions>;

export const DEFAULT_RETRY: Readonly<RetrySettings> = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  sleep: abortableSleep,
  random: Math.random,
};

export function retrySettings(options: RetryOptions = {}): RetrySettings {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return { ...DEFAULT_RETRY, ...given };
}

/** Undefined: do not retry. Retry-after is honoured as given; otherwise capped backoff with jitter. */
export function retryDelay(error: ModelError, attempt: number, o: RetrySettings): number | undefined {
  if (!error.retryable || attempt >= o.maxAttempts) return undefined;
  if (error.retryAfterMs !== undefined) return error.retryAfterMs <= o.maxRetryAfterMs ? error.retryAfterMs : undefined;
  const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 1));
  // "Equal jitter": at least half the backoff, so clients that failed together spread out.
  return Math.round(ceiling / 2 + (o.random() * ceiling) / 2);
}

/** The error a turn finally ends with, saying so when retries were spent on it. */
export function givenUp(error: ModelError, attempts: number): ModelError {
  if (!error.retryable || attempts === 1) return error;
  return { ...error, message: `${error.message} (gave up after ${attempts} attempts)` };
}

/** Waits `ms`, or less when `signal` aborts (it resolves then, never rejects). */
export function abortableSleep(ms: number, signal: AbortSignal, timers: Timers = realTimers): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      timers.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = timers.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
