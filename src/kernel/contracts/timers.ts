// Timers as a port: code that waits (retry backoff, a process's timeout and kill grace) takes
// them injected, so tests move time by hand instead of sleeping and racing a busy machine.
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
