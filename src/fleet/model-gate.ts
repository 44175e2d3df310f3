// The provider's limits, shared by every task of a fleet: at most `concurrency` model requests in
// flight and at most `perMinute` started in any minute, and a pause for everyone when the
// provider answers 429 with a retry-after. A request waits at the gate before it streams and
// holds its slot until its stream ends (its own retries included). The gate lives in Redis for
// workers on many machines (redis-gate.ts) or in this process for `keel fleet run`.
import type { ModelEvent, ModelProvider, ModelRequest } from '../kernel/index.js';

export interface GateLimits {
  /** Model requests in flight at once across the fleet; 0: no limit. */
  concurrency: number;
  /** Model requests started per minute across the fleet; 0: no limit. */
  perMinute: number;
}

export interface GateLease {
  release(): Promise<void>;
}

export interface ModelGate {
  /** Waits for a slot (or the signal); the lease must be released. */
  acquire(signal: AbortSignal): Promise<GateLease>;
  /** The provider asked for a pause (429 with retry-after): no one starts a request before it ends. */
  pause(ms: number): Promise<void>;
}

/** The provider with every stream passed through the gate. */
export function gatedProvider(inner: ModelProvider, gate: ModelGate): ModelProvider {
  return {
    name: inner.name,
    model: inner.model,
    capabilities: inner.capabilities,
    stream: (request, signal) => gatedStream(inner, gate, request, signal),
    ...(inner.forFrame ? { forFrame: (frameId: string) => gatedProvider(inner.forFrame!(frameId), gate) } : {}),
    // An agent's model goes through the same gate (the fleet's rate limit is per key, not per model).
    ...(inner.withModel
      ? {
          withModel: (requested: string) => {
            const choice = inner.withModel!(requested);
            return choice.type === 'switched' ? { ...choice, provider: gatedProvider(choice.provider, gate) } : choice;
          },
        }
      : {}),
  };
}

async function* gatedStream(inner: ModelProvider, gate: ModelGate, request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
  const lease = await gate.acquire(signal);
  try {
    for await (const event of inner.stream(request, signal)) {
      if (event.type === 'retry' && event.error.kind === 'rate_limited') await gate.pause(event.delayMs);
      yield event;
    }
  } finally {
    await lease.release();
  }
}

/** The gate of one process: the same limits, kept in memory. */
export function localGate(limits: GateLimits, now: () => number = Date.now): ModelGate {
  let inFlight = 0;
  let pausedUntil = 0;
  const started: number[] = [];
  // Everyone waiting re-checks when a slot frees: the first to run takes it, the others wait again.
  const waiting = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...waiting]) wake();
  };
  const waitMs = (): number | 'full' | 0 => {
    const t = now();
    if (pausedUntil > t) return pausedUntil - t;
    if (limits.concurrency > 0 && inFlight >= limits.concurrency) return 'full';
    while (started.length && started[0]! <= t - 60_000) started.shift();
    if (limits.perMinute > 0 && started.length >= limits.perMinute) return started[0]! + 60_000 - t;
    return 0;
  };
  return {
    async acquire(signal) {
      for (;;) {
        if (signal.aborted) throw new Error('Stopped while waiting for the model gate.');
        const wait = waitMs();
        if (wait === 0) break;
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            if (timer) clearTimeout(timer);
            signal.removeEventListener('abort', wake);
            resolve();
          };
          const timer = wait === 'full' ? undefined : setTimeout(wake, wait);
          waiting.add(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
      }
      inFlight++;
      started.push(now());
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          inFlight--;
          wakeAll();
        },
      };
    },
    async pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}
