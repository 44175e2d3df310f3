// The append-only event log: stamps each event with its sequence number, run id and time,
// checks it against the log's schema, keeps it, tells subscribers, and hands it to a store for
// persistence. An event that does not match the schema is an error thrown to whoever emitted
// it, never a line in the log: a saved task must always read back.
//
// Streamed text dominates a long task's log, so text deltas are kept in columns — the text
// itself, its time, its run — rather than as one object each: a million deltas cost about
// the bytes of their text plus 16 bytes apiece. Events are rebuilt from columns on read.
import type { LogStore } from './contracts/runtime.js';
import { type RuntimeEvent, type RuntimeEventInput, RuntimeEventSchema } from './contracts/events.js';

export type EventListener = (event: RuntimeEvent) => void;

/** An entry is a whole event, or — for a text delta — just its text. */
type Entry = RuntimeEvent | string;

export class EventLog {
  private entries: Entry[] = [];
  private times = new Float64Array(1024);
  /** Run ids by the index at which each run's entries begin. */
  private readonly runStarts: { index: number; runId: string }[] = [];
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly store?: LogStore,
    initial: readonly RuntimeEvent[] = [],
    private readonly now: () => number = Date.now,
  ) {
    for (const event of initial) this.keep(event);
  }

  get length(): number {
    return this.entries.length;
  }

  /** Stamps and appends an event. Takes ownership of `input` (stamped in place, not copied). */
  append(input: RuntimeEventInput, runId: string): RuntimeEvent {
    const event = input as RuntimeEvent;
    event.seq = this.entries.length + 1;
    event.runId = runId;
    event.time = this.now();
    checkEvent(event);
    this.keep(event);
    this.store?.append([event]);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The event with sequence number `seq` (1-based). */
  at(seq: number): RuntimeEvent | undefined {
    const i = seq - 1;
    const entry = this.entries[i];
    if (entry === undefined || typeof entry !== 'string') return entry;
    return { type: 'text_delta', text: entry, seq, runId: this.runIdAt(i), time: this.times[i]! };
  }

  /** Every event so far, rebuilt in order. O(n): for persistence, replay and tests. */
  snapshot(): RuntimeEvent[] {
    const out: RuntimeEvent[] = new Array(this.entries.length);
    for (let i = 0; i < this.entries.length; i++) out[i] = this.at(i + 1)!;
    return out;
  }

  flush(): Promise<void> {
    return this.store ? this.store.flush() : Promise.resolve();
  }

  /** Why the store stopped recording events, if it did (see LogStore.failure). */
  failure(): Error | undefined {
    return this.store?.failure?.();
  }

  private keep(event: RuntimeEvent): void {
    const i = this.entries.length;
    if (event.seq !== i + 1) throw new Error(`Event log out of order: expected seq ${i + 1}, got ${event.seq}.`);
    const lastRun = this.runStarts[this.runStarts.length - 1];
    if (lastRun?.runId !== event.runId) this.runStarts.push({ index: i, runId: event.runId });
    // A child frame's delta keeps its frame: it is stored whole.
    if (event.type === 'text_delta' && event.frame === undefined) {
      if (i >= this.times.length) this.growTimes();
      this.times[i] = event.time;
      this.entries.push(event.text);
    } else {
      this.entries.push(event);
    }
  }

  private growTimes(): void {
    const bigger = new Float64Array(this.times.length * 2);
    bigger.set(this.times);
    this.times = bigger;
  }

  private runIdAt(index: number): string {
    let lo = 0;
    let hi = this.runStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.runStarts[mid]!.index <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.runStarts[lo]!.runId;
  }
}

/** An event that does not match the log's schema: it was not kept, stored or told to anyone. */
class MalformedEventError extends Error {
  override name = 'MalformedEventError';
}

/**
 * The event as the schema has it, or a MalformedEventError. Streamed deltas, the bulk of a log,
 * are checked by hand (two strings and three numbers): the schema's parse would cost each one
 * an object walk.
 */
function checkEvent(event: RuntimeEvent): void {
  if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
    if (typeof event.text === 'string' && (event.frame === undefined || typeof event.frame === 'string') && typeof event.runId === 'string')
      return;
  }
  const parsed = RuntimeEventSchema.safeParse(event);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  const type = typeof event.type === 'string' ? `a ${event.type.slice(0, 40)} event` : 'an event without a type';
  throw new MalformedEventError(
    `Keel refused to log ${type}: it does not match the task log's format (${issue?.message ?? 'invalid'}${where}).`,
  );
}

/** A store that keeps appended events in memory (tests, the CLI without --log). */
export class MemoryLogStore implements LogStore {
  readonly events: RuntimeEvent[] = [];
  append(events: readonly RuntimeEvent[]): void {
    for (const e of events) this.events.push(e);
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
}
