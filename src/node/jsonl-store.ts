// The task log on disk: JSON Lines, a version header first, one event per line.
// Appends are whole lines written with O_APPEND, so a crash can only tear the last line;
// loading keeps every complete line and reports a torn one instead of dropping it silently.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOG_FORMAT_VERSION, RuntimeEventSchema, type LogStore, type RuntimeEvent } from '../kernel/index.js';

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
  /** The last line, when it was cut off mid-write (a crash). */
  torn?: LogProblem;
  /** Complete lines that are not valid events (kept out of the events, never silently). */
  invalid: LogProblem[];
}

export class LogFormatError extends Error {
  override name = 'LogFormatError';
}

function headerLine(): string {
  return `${JSON.stringify({ kind: LOG_KIND, version: LOG_FORMAT_VERSION })}\n`;
}

function parseLog(text: string): LoadedLog {
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n');
  const last = endsClean ? lines.length - 2 : lines.length - 1;
  const header = parseHeader(lines[0] ?? '');
  const result: LoadedLog = { events: [], version: header.version, invalid: [] };
  for (let i = 1; i <= last; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
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
    else if (i === last && !endsClean) result.torn = { line: i + 1, text: line, reason: parsed.reason };
    else result.invalid.push({ line: i + 1, text: line, reason: parsed.reason });
  }
  return result;
}

function parseHeader(line: string): { version: number } {
  let header: { kind?: unknown; version?: unknown };
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
  return { version: header.version };
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

export function loadLog(file: string): LoadedLog {
  return parseLog(fs.readFileSync(file, 'utf8'));
}

/**
 * Appends events as lines. Writes are batched per tick and issued with a single write(2)
 * each; `flush()` waits for them and fsyncs.
 */
export class JsonlLogStore implements LogStore {
  private pending: string[] = [];
  private scheduled = false;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly fd: number,
  ) {}

  /**
   * Opens a log for appending, creating it with a header. A torn last line is moved aside
   * to `<file>.torn` (so nothing is lost) and cut from the log, so new lines start clean.
   */
  static open(file: string): JsonlLogStore {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file) || fs.statSync(file).size === 0) fs.writeFileSync(file, headerLine());
    else cutTornTail(file);
    return new JsonlLogStore(file, fs.openSync(file, 'a'));
  }

  append(events: readonly RuntimeEvent[]): void {
    if (this.closed) throw new Error('The log is closed.');
    for (const e of events) this.pending.push(JSON.stringify(e));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.writePending());
    }
  }

  private writePending(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const chunk = `${this.pending.join('\n')}\n`;
    this.pending = [];
    fs.writeSync(this.fd, chunk);
  }

  async flush(): Promise<void> {
    this.writePending();
    await new Promise<void>((resolve, reject) => fs.fsync(this.fd, (err) => (err ? reject(err) : resolve())));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    fs.closeSync(this.fd);
  }
}

function cutTornTail(file: string): void {
  const text = fs.readFileSync(file, 'utf8');
  if (text.endsWith('\n')) return;
  const keep = text.lastIndexOf('\n') + 1;
  fs.writeFileSync(`${file}.torn`, text.slice(keep));
  fs.truncateSync(file, Buffer.byteLength(text.slice(0, keep)));
}
