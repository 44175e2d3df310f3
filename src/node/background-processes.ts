// The background-process table on Node: each process is an ordinary Workspace.runProcess run
// with a long lifetime and its own abort signal, so it gets everything a command gets — Keel's
// one shell, its own process group, the sandbox profile the policy chose, the scrubbed
// environment and the keeper that ends it if Keel is killed. Output is kept twice, bounded:
// since the last read, and over its whole life (head and tail), and scanned for ports.
import {
  BackgroundError,
  type BackgroundInfo,
  type BackgroundOutput,
  type BackgroundProcesses,
  type BackgroundStart,
  type ProcessResult,
  type Workspace,
} from '../kernel/index.js';
import { BoundedCapture } from './bounded-capture.js';
import { PortScanner } from './port-scan.js';

export interface BackgroundOptions {
  /** How many may run at once (default 4). */
  limit?: number;
  /** Characters kept of each head and tail (default 16,000). */
  keepChars?: number;
  /** Ended however long it runs, so a forgotten one does not run for days (default 12 hours). */
  lifetimeMs?: number;
}

const DEFAULT_LIMIT = 4;
const DEFAULT_KEEP_CHARS = 16_000;
const DEFAULT_LIFETIME_MS = 12 * 60 * 60_000;

interface Entry {
  info: BackgroundInfo;
  stopper: AbortController;
  whole: BoundedCapture;
  fresh: BoundedCapture;
  scanner: PortScanner;
  ended: Promise<void>;
}

export function createBackgroundProcesses(workspace: Workspace, options: BackgroundOptions = {}): BackgroundProcesses {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const keep = options.keepChars ?? DEFAULT_KEEP_CHARS;
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  const running = () => [...entries.values()].filter((e) => e.info.state === 'running');

  const launch = (request: BackgroundStart): { entry: Entry; started: Promise<ProcessResult> } => {
    const info: BackgroundInfo = {
      name: request.name,
      command: request.command,
      ...(request.cwd ? { cwd: request.cwd } : {}),
      sandbox: request.sandbox ?? 'none',
      state: 'running',
      exitCode: null,
      ports: [],
      startedAt: Date.now(),
      outputChars: 0,
    };
    const stopper = new AbortController();
    const whole = new BoundedCapture(keep);
    const scanner = new PortScanner();
    const entry: Entry = { info, stopper, whole, fresh: new BoundedCapture(keep), scanner, ended: Promise.resolve() };
    const onOutput = (chunk: string) => {
      whole.push(chunk);
      entry.fresh.push(chunk);
      info.outputChars += chunk.length;
      scanner.push(chunk);
      const before = info.ports.length;
      info.ports = [...scanner.found()];
      if (info.ports.length !== before) changed();
    };
    const started = workspace.runProcess(request.command, {
      ...(request.cwd ? { cwd: request.cwd } : {}),
      timeoutMs: options.lifetimeMs ?? DEFAULT_LIFETIME_MS,
      signal: stopper.signal,
      onOutput,
      // The run's own capture is not read: the table keeps its own.
      maxCaptureChars: 1000,
      ...(request.env ? { env: request.env } : {}),
      ...(request.sandbox ? { sandbox: request.sandbox } : {}),
    });
    entry.ended = started.then(
      (r) => {
        info.state = r.cancelled ? 'stopped' : 'exited';
        info.exitCode = r.exitCode;
        if (r.timedOut) info.problem = 'it reached the longest time a background process may run and was ended';
        changed();
      },
      (err: unknown) => {
        info.state = 'exited';
        info.problem = err instanceof Error ? err.message : String(err);
        changed();
      },
    );
    return { entry, started };
  };

  const snapshot = (entry: Entry, output: BackgroundOutput['output']): BackgroundOutput => ({
    info: { ...entry.info, ports: [...entry.info.ports] },
    output,
  });

  const find = (name: string): Entry => {
    const entry = entries.get(name);
    if (entry) return entry;
    const known = [...entries.keys()];
    const names = known.length ? `; this task has ${known.join(', ')}` : '; this task has started none';
    throw new BackgroundError('not_found', `No background process is named ${JSON.stringify(name)}${names}.`);
  };

  return {
    limit,
    async start(request, wait) {
      const now = running();
      if (entries.get(request.name)?.info.state === 'running')
        throw new BackgroundError('name_taken', `A process named ${request.name} is already running; stop it first or pick another name.`);
      if (now.length >= limit)
        throw new BackgroundError(
          'limit',
          `At most ${limit} background processes run at once, and ${now.map((e) => e.info.name).join(', ')} are running; stop one with stop_process first.`,
        );
      const { entry, started } = launch(request);
      entries.set(request.name, entry);
      changed();
      await settled(entry, started, wait);
      if (entry.info.state === 'exited' && entry.info.problem && entry.info.outputChars === 0) {
        entries.delete(request.name);
        changed();
        throw new BackgroundError('failed', entry.info.problem);
      }
      return snapshot(entry, takeFresh(entry, keep));
    },
    read(name, mode) {
      const entry = find(name);
      return snapshot(entry, mode === 'new' ? takeFresh(entry, keep) : entry.whole.result());
    },
    async stop(name) {
      const entry = find(name);
      entry.stopper.abort();
      await entry.ended;
      return { ...entry.info };
    },
    list() {
      const all = [...entries.values()].map((e) => ({ ...e.info, ports: [...e.info.ports] }));
      return [...all.filter((i) => i.state === 'running'), ...all.filter((i) => i.state !== 'running')];
    },
    async stopAll() {
      const live = running();
      for (const e of live) e.stopper.abort();
      await Promise.all(live.map((e) => e.ended));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Output since the last read, which is now read. */
function takeFresh(entry: Entry, keep: number): BackgroundOutput['output'] {
  const out = entry.fresh.result();
  entry.fresh = new BoundedCapture(keep);
  return out;
}

/** Resolves when the process has printed a port, has ended, `settleMs` have passed, or the call was cancelled. */
function settled(entry: Entry, started: Promise<ProcessResult>, wait: { settleMs: number; signal: AbortSignal }): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      clearInterval(poll);
      wait.signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, wait.settleMs);
    // Ports arrive with output; a short poll keeps this free of a second listener list.
    const poll = setInterval(() => {
      if (entry.info.ports.length > 0) done();
    }, 25);
    wait.signal.addEventListener('abort', done, { once: true });
    void entry.ended.then(done);
    void started.catch(() => undefined);
  });
}
