// The task log on disk: JSON Lines, a version header first (with the run's approvals and command
// rules when the host gives them), one event per line. Appends are whole lines written with
// O_APPEND, so a crash can only tear the last line; loading keeps every complete line and
// reports a torn one instead of dropping it silently. A write that fails (a full disk) is cut
// back to the last whole line and the store stops: `failure` names the file, and the runtime
// ends the run rather than act on events it cannot record. Given the user's log key, a new log
// is sealed (log-seal.ts: each line carries a MAC chained to the one before) and loading checks
// the chain, so a reader knows whether Keel wrote every line as it stands.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  LOG_FORMAT_VERSION,
  RunPolicySchema,
  RuntimeEventSchema,
  type LogStore,
  type RunPolicy,
  type RuntimeEvent,
} from '../kernel/index.js';
import { storageError, type StorageError } from './fs-errors.js';
import { lineMac, newHeaderSeal, sameMac, sealedLine, splitSealedLine, type HeaderSeal, type LogSealKey } from './log-seal.js';

const LOG_KIND = 'keel-event-log';

interface LogProblem {
  /** 1-based line number in the file. */
  line: number;
  text: string;
  reason: string;
}

export interface LoadedLog {
  events: RuntimeEvent[];
  version: number;
  /** The approvals and command rules the run was started with, when the header records them. */
  policy?: RunPolicy;
  /** The last line, when it was cut off mid-write (a crash). */
  torn?: LogProblem;
  /** Complete lines that are not valid events (kept out of the events, never silently). */
  invalid: LogProblem[];
  /** Whether the log's seal verifies with the key it was loaded with. */
  seal: LogSealState;
}

/**
 * verified: every whole line is as the holder of the key wrote it; unsealed: the log carries no
 * seal (an older Keel, the extension, another program, or a seal stripped off); unchecked: sealed,
 * but loaded without a key; broken: the line named was changed (or added) after it was written,
 * or the log was sealed with another key (`otherKey`: another user's or machine's Keel).
 */
type LogSealState =
  | { type: 'verified' }
  | { type: 'unsealed' }
  | { type: 'unchecked' }
  | { type: 'broken'; line: number; otherKey: boolean };

export class LogFormatError extends Error {
  override name = 'LogFormatError';
}

/** What a host records in a new log's header. */
export interface LogHeader {
  policy?: RunPolicy;
}

/** A new log's first line, and the MAC its next line chains to when it is sealed. */
function headerLine(header: LogHeader, key: LogSealKey | undefined): { text: string; mac: string | undefined } {
  const body = JSON.stringify({ kind: LOG_KIND, version: LOG_FORMAT_VERSION, ...header, ...(key ? { seal: newHeaderSeal(key) } : {}) });
  if (!key) return { text: `${body}\n`, mac: undefined };
  const mac = lineMac(key, '', body);
  return { text: `${sealedLine(body, mac)}\n`, mac };
}

function parseLog(text: string, key: LogSealKey | undefined): LoadedLog {
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n');
  const last = endsClean ? lines.length - 2 : lines.length - 1;
  const header = parseHeader(lines[0] ?? '');
  const chain = sealChain(lines[0] ?? '', header.seal, key);
  const result: LoadedLog = {
    events: [],
    version: header.version,
    invalid: [],
    seal: chain.state,
    ...(header.policy ? { policy: header.policy } : {}),
  };
  for (let i = 1; i <= last; i++) {
    const whole = lines[i]!;
    if (whole.trim() === '') continue;
    const torn = i === last && !endsClean;
    const line = torn ? whole : chain.check(whole, i + 1);
    const parsed = parseEvent(line);
    // Events are kept while their sequence numbers run unbroken: state folded across a lost
    // event would be wrong. What follows a gap is reported, never silently dropped.
    const expected = result.events.length + 1;
    if (parsed.ok && (parsed.event.seq !== expected || result.invalid.length > 0))
      result.invalid.push({
        line: i + 1,
        text: line,
        reason: `follows a damaged or missing event (sequence ${expected} expected, found ${parsed.event.seq})`,
      });
    else if (parsed.ok) result.events.push(parsed.event);
    else if (torn) result.torn = { line: i + 1, text: line, reason: parsed.reason };
    else result.invalid.push({ line: i + 1, text: line, reason: parsed.reason });
  }
  result.seal = chain.state;
  return result;
}

/**
 * Follows a sealed log's MAC chain line by line: `check` returns a line without its MAC field
 * and notes the first line that does not verify. Without a seal or a key it only strips the field.
 */
function sealChain(headerText: string, seal: HeaderSeal | undefined, key: LogSealKey | undefined) {
  const chain = {
    state: (!seal ? { type: 'unsealed' } : !key ? { type: 'unchecked' } : { type: 'verified' }) as LogSealState,
    previous: '',
    check(line: string, number: number): string {
      const split = splitSealedLine(line);
      if (chain.state.type !== 'verified' || !key) return split?.body ?? line;
      if (!split || !sameMac(lineMac(key, chain.previous, split.body), split.mac)) {
        chain.state = { type: 'broken', line: number, otherKey: false };
        return split?.body ?? line;
      }
      chain.previous = split.mac;
      return split.body;
    },
  };
  if (seal && key) {
    if (seal.key !== key.id) chain.state = { type: 'broken', line: 1, otherKey: true };
    else chain.check(headerText, 1);
  }
  return chain;
}

function parseHeader(line: string): { version: number; policy?: RunPolicy; seal?: HeaderSeal } {
  let header: { kind?: unknown; version?: unknown; policy?: unknown; seal?: unknown };
  try {
    header = JSON.parse(line);
  } catch {
    throw new LogFormatError('This file is not a Keel event log (no header line).');
  }
  if (header?.kind !== LOG_KIND || typeof header.version !== 'number') {
    throw new LogFormatError('This file is not a Keel event log (unknown header).');
  }
  if (header.version > LOG_FORMAT_VERSION) {
    throw new LogFormatError(
      `This log was written by a newer Keel (format ${header.version}; this Keel reads up to ${LOG_FORMAT_VERSION}).`,
    );
  }
  const policy = RunPolicySchema.safeParse(header.policy);
  const seal = header.seal as Partial<HeaderSeal> | undefined;
  const sealed = typeof seal?.nonce === 'string' && typeof seal.key === 'string' ? { seal: seal as HeaderSeal } : {};
  return { version: header.version, ...(policy.success ? { policy: policy.data } : {}), ...sealed };
}

function parseEvent(line: string): { ok: true; event: RuntimeEvent } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${(err as Error).message}` };
  }
  const parsed = RuntimeEventSchema.safeParse(value);
  return parsed.success
    ? { ok: true, event: parsed.data as RuntimeEvent }
    : { ok: false, reason: parsed.error.issues[0]?.message ?? 'invalid event' };
}

/** The log's events; with the user's key, also whether its seal verifies. */
export function loadLog(file: string, key?: LogSealKey): LoadedLog {
  return parseLog(fs.readFileSync(file, 'utf8'), key);
}

/**
 * Appends events as lines. Writes are batched per tick and issued with a single write(2)
 * each; `flush()` waits for them and fsyncs. A failed or short write is cut back to the last
 * whole line, and every later append is dropped: the log stays a run of whole events.
 */
export class JsonlLogStore implements LogStore {
  private pending: string[] = [];
  private scheduled = false;
  private closed = false;
  /** Bytes of whole lines on disk: where a failed write is cut back to. */
  private size: number;
  private failed: StorageError | undefined;

  private constructor(
    readonly file: string,
    private readonly fd: number,
    /** The key and the MAC the next line chains to, while the log is sealed. */
    private readonly seal: { key: LogSealKey; previous: string } | undefined,
  ) {
    this.size = fs.fstatSync(fd).size;
  }

  /**
   * Opens a log for appending, creating it with a header (sealed when a key is given). A torn
   * last line is moved aside to `<file>.torn` (so nothing is lost) and cut from the log, so new
   * lines start clean; a sealed log's chain goes on from its last line (an unsealed one stays
   * unsealed). Throws a StorageError naming the file when it cannot be created or opened.
   */
  static open(file: string, header: LogHeader = {}, key?: LogSealKey): JsonlLogStore {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      let previous: string | undefined;
      if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
        const first = headerLine(header, key);
        writeWhole(file, first.text);
        previous = first.mac;
      } else {
        const whole = cutTornTail(file);
        previous = key ? chainEnd(whole) : undefined;
      }
      const seal = key && previous !== undefined ? { key, previous } : undefined;
      return new JsonlLogStore(file, fs.openSync(file, 'a'), seal);
    } catch (err) {
      throw storageError(err, 'the task log', file);
    }
  }

  /** Why the log stopped taking events (a write failed), or undefined while it is whole. */
  failure(): Error | undefined {
    return this.failed;
  }

  append(events: readonly RuntimeEvent[]): void {
    if (this.closed) throw new Error('The log is closed.');
    if (this.failed) return;
    for (const e of events) this.pending.push(this.line(JSON.stringify(e)));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.writePending());
    }
  }

  /** An event's line: as it is, or sealed, chained to the line before. */
  private line(body: string): string {
    if (!this.seal) return body;
    const mac = lineMac(this.seal.key, this.seal.previous, body);
    this.seal.previous = mac;
    return sealedLine(body, mac);
  }

  private writePending(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.failed) return;
    const chunk = Buffer.from(`${this.pending.join('\n')}\n`);
    this.pending = [];
    try {
      const written = fs.writeSync(this.fd, chunk);
      if (written !== chunk.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
      this.size += written;
    } catch (err) {
      this.failed = storageError(err, 'the task log', this.file);
      // A partial line would glue onto nothing; the whole lines before it stay readable.
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // The torn tail is reported as torn when the log is loaded.
      }
    }
  }

  async flush(): Promise<void> {
    this.writePending();
    if (this.failed) throw this.failed;
    await new Promise<void>((resolve, reject) =>
      fs.fsync(this.fd, (err) => (err ? reject((this.failed = storageError(err, 'the task log', this.file))) : resolve())),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush().catch(() => undefined);
    this.closed = true;
    fs.closeSync(this.fd);
  }
}

/** Creates a small file with one write(2), all or nothing: a short write is removed. */
function writeWhole(file: string, text: string): void {
  const bytes = Buffer.from(text);
  const fd = fs.openSync(file, 'w');
  try {
    if (fs.writeSync(fd, bytes) !== bytes.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw err;
  }
  fs.closeSync(fd);
}

/** Cuts a torn last line off (kept beside the log); returns the whole lines that stay. */
function cutTornTail(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  if (text.endsWith('\n')) return text;
  const keep = text.lastIndexOf('\n') + 1;
  fs.writeFileSync(`${file}.torn`, text.slice(keep));
  fs.truncateSync(file, Buffer.byteLength(text.slice(0, keep)));
  return text.slice(0, keep);
}

/** The MAC a sealed log's next line chains to (its last line's); undefined for an unsealed log. */
function chainEnd(text: string): string | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  try {
    if (!parseHeader(lines[0] ?? '').seal) return undefined;
  } catch {
    return undefined;
  }
  return splitSealedLine(lines.at(-1) ?? '')?.mac ?? '';
}
