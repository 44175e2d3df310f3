// One model turn as a stream of ModelEvents, with our retries. A turn that fails — before
// the response or mid-stream — is announced with a `retry` event and streamed again from
// its start; tool intents are only released by a turn that completed, so an abandoned
// partial turn never yields a call with partial input.
//
// The source hands over raw events a network read at a time. A read's events are
// translated together and its adjacent text (or reasoning) deltas go out as one: a burst
// of thousands of tokens costs the kernel one event, while a model streaming at its own
// pace (one event per read) is passed through as it comes.
//
// Each attempt gets its own AbortSignal, linked to the run's only while the attempt lasts:
// the SDKs add an abort listener per request to the signal they are given and do not always
// take it off (OpenAI never does; Anthropic not when the body is read through `asResponse`),
// so handing them the run's signal left one listener per turn on it for the whole run.
//
// This is a hand-written async iterator rather than an async generator: the hot path
// (one read in, one merged ModelEvent out) is a single promise `then`.
import type { ModelError, ModelEvent } from '../kernel/contracts/index.js';
import { TurnFailure, cancelledError } from './errors.js';
import { givenUp, retryDelay, retrySettings, type RetryOptions, type RetrySettings } from './retry.js';

/** Turns one attempt's raw SDK events into ModelEvents. A new one per attempt. */
export interface TurnTranslator<Raw> {
  /** Translates one raw event into what streams out now: text and reasoning deltas. */
  push(raw: Raw): ModelEvent | ModelEvent[] | undefined;
  /** The stream's stop marker arrived: nothing after it can change the turn. */
  readonly done: boolean;
  /** The turn's content is whole even if the stream now breaks (only usage may be missing). */
  readonly complete: boolean;
  /** The closing events (intents in order, usage, final); throws TurnFailure if incomplete. */
  finish(): ModelEvent[];
}

export interface TurnSource<Raw> {
  /** The attempt's raw events, batched by network read. */
  open(signal: AbortSignal): Promise<AsyncIterable<Raw[]>>;
  translator(): TurnTranslator<Raw>;
  classify(e: unknown, signal: AbortSignal): ModelError;
}

export function streamTurn<Raw>(source: TurnSource<Raw>, signal: AbortSignal, options?: RetryOptions): AsyncIterable<ModelEvent> {
  return { [Symbol.asyncIterator]: () => new TurnIterator(source, signal, retrySettings(options)) };
}

/** A stream of one event: a provider that cannot even start (no key) still answers in events. */
export function singleEvent(event: ModelEvent): AsyncIterable<ModelEvent> {
  return (async function* () {
    yield event;
  })();
}

type Result = IteratorResult<ModelEvent>;
const DONE: Result = { value: undefined, done: true };
const item = (value: ModelEvent): Result => ({ value, done: false });

class TurnIterator<Raw> implements AsyncIterator<ModelEvent> {
  private attempt = 0;
  private raw: AsyncIterator<Raw[]> | undefined;
  /** Cuts the current attempt's signal loose from the run's (undefined between attempts). */
  private unlink: (() => void) | undefined;
  private turn: TurnTranslator<Raw> | undefined;
  /** Events to hand out before anything else: the rest of a multi-event push, closing events. */
  private readonly queued: ModelEvent[] = [];
  private waitMs: number | undefined;
  /** A read's translation failed part-way: what it translated goes out first, then this. */
  private failure: unknown;
  private failed = false;
  private ended = false;

  constructor(
    private readonly source: TurnSource<Raw>,
    private readonly signal: AbortSignal,
    private readonly o: RetrySettings,
  ) {}

  next(): Promise<Result> {
    if (this.queued.length > 0) return Promise.resolve(item(this.queued.shift()!));
    if (this.failed) {
      this.failed = false;
      return this.onError(this.failure);
    }
    if (this.ended) return Promise.resolve(DONE);
    if (this.raw) return this.raw.next().then(this.onRaw, this.onError);
    return this.startAttempt();
  }

  /** The consumer stopped early: stop the SDK stream too (which aborts its request). */
  return(): Promise<Result> {
    this.ended = true;
    this.failed = false;
    this.queued.length = 0;
    return this.closeRaw().then(() => {
      this.endLink();
      return DONE;
    });
  }

  private readonly onRaw = (r: IteratorResult<Raw[]>): Result | Promise<Result> => this.handle(r) ?? this.pullMore();

  /** Raw events that stream nothing out (pings, tool-input fragments) are pulled in a loop, not a promise chain. */
  private async pullMore(): Promise<Result> {
    while (this.raw) {
      let r: IteratorResult<Raw[]>;
      try {
        r = await this.raw.next();
      } catch (e) {
        return this.onError(e);
      }
      const result = this.handle(r);
      if (result !== undefined) return result;
    }
    return this.next();
  }

  /** Undefined: nothing to hand out yet. */
  private handle(r: IteratorResult<Raw[]>): Result | Promise<Result> | undefined {
    if (r.done) return this.endAttempt(undefined);
    const turn = this.turn!;
    const out = new DeltaMerger();
    for (const raw of r.value) {
      try {
        out.add(turn.push(raw));
      } catch (e) {
        void this.closeRaw();
        this.failure = e;
        this.failed = true;
        break;
      }
      if (turn.done) break;
    }
    const events = out.events();
    if (turn.done && !this.failed) {
      void this.closeRaw();
      this.queued.push(...events);
      return this.endAttempt(undefined);
    }
    if (events.length === 0) return this.failed ? this.next() : undefined;
    if (events.length > 1) this.queued.push(...events.slice(1));
    return item(events[0]!);
  }

  private readonly onError = (e: unknown): Promise<Result> =>
    this.endAttempt(e instanceof TurnFailure ? e.error : this.source.classify(e, this.signal));

  private async startAttempt(): Promise<Result> {
    if (this.waitMs !== undefined) await this.o.sleep(this.waitMs, this.signal);
    this.waitMs = undefined;
    if (this.ended) return DONE;
    if (this.signal.aborted) return this.endWith({ type: 'error', error: cancelledError() });
    this.attempt++;
    this.turn = this.source.translator();
    const link = linkedSignal(this.signal);
    this.unlink = link.unlink;
    try {
      this.raw = (await this.source.open(link.signal))[Symbol.asyncIterator]();
    } catch (e) {
      return this.onError(e);
    }
    if (this.ended)
      return this.closeRaw().then(() => {
        this.endLink();
        return DONE;
      });
    return this.next();
  }

  /** The attempt's stream is over: finish the turn, or announce a retry, or end with the error. */
  private endAttempt(failure: ModelError | undefined): Promise<Result> {
    this.raw = undefined;
    this.endLink();
    // The SDKs end an aborted stream quietly: an abort must never pass for a finished turn.
    if (this.signal.aborted) return this.endWith({ type: 'error', error: cancelledError() });
    if (!failure || this.turn!.complete) {
      const closing = finishTurn(this.turn!);
      if (Array.isArray(closing)) {
        this.queued.push(...closing);
        this.ended = true;
        return this.next();
      }
      failure = closing;
    }
    this.queued.length = 0;
    const delayMs = retryDelay(failure, this.attempt, this.o);
    if (delayMs === undefined) return this.endWith({ type: 'error', error: givenUp(failure, this.attempt) });
    this.waitMs = delayMs;
    return Promise.resolve(item({ type: 'retry', attempt: this.attempt, delayMs, error: failure }));
  }

  private endWith(event: ModelEvent): Promise<Result> {
    this.ended = true;
    this.queued.length = 0;
    return Promise.resolve(item(event));
  }

  private endLink(): void {
    this.unlink?.();
    this.unlink = undefined;
  }

  private closeRaw(): Promise<unknown> {
    const raw = this.raw;
    this.raw = undefined;
    return Promise.resolve(raw?.return?.()).catch(() => undefined);
  }
}

/** A signal that aborts when `parent` does, until `unlink` is called; listeners on it die with it. */
function linkedSignal(parent: AbortSignal): { signal: AbortSignal; unlink: () => void } {
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, unlink: () => undefined };
  }
  const forward = () => child.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { signal: child.signal, unlink: () => parent.removeEventListener('abort', forward) };
}

/**
 * Collects a read's ModelEvents, joining each run of adjacent text or reasoning deltas into one and
 * keeping only the latest of adjacent progress events of one tool call.
 */
class DeltaMerger {
  private readonly out: ModelEvent[] = [];
  private run: { type: 'text_delta' | 'reasoning_delta'; parts: string[] } | undefined;

  add(events: ModelEvent | ModelEvent[] | undefined): void {
    if (events === undefined) return;
    if (Array.isArray(events)) for (const e of events) this.addOne(e);
    else this.addOne(events);
  }

  events(): ModelEvent[] {
    this.endRun();
    return this.out;
  }

  private addOne(e: ModelEvent): void {
    // A call's input growing within one read: its latest progress stands for the rest.
    const last = this.run ? undefined : this.out.at(-1);
    if (e.type === 'tool_input_progress' && last?.type === 'tool_input_progress' && last.call === e.call) {
      this.out[this.out.length - 1] = e;
      return;
    }
    if (e.type === 'text_delta' || e.type === 'reasoning_delta') {
      if (this.run?.type === e.type) {
        this.run.parts.push(e.text);
        return;
      }
      this.endRun();
      this.run = { type: e.type, parts: [e.text] };
      return;
    }
    this.endRun();
    this.out.push(e);
  }

  private endRun(): void {
    if (!this.run) return;
    const { type, parts } = this.run;
    this.out.push({ type, text: parts.length === 1 ? parts[0]! : parts.join('') });
    this.run = undefined;
  }
}

function finishTurn(t: TurnTranslator<unknown>): ModelEvent[] | ModelError {
  try {
    return t.finish();
  } catch (e) {
    if (e instanceof TurnFailure) return e.error;
    throw e;
  }
}
