// One memory file: JSON Lines of records and tombstones, append-only. Each append is one
// write(2) of whole lines through O_APPEND, so writers in several processes interleave lines and
// lose none. Every line is written with a leading newline, so a line torn by a crash never glues
// onto the next one. Loading sets bad lines aside in `<file>.torn` and compacts the file when
// something can be dropped; a compaction never loses a line another process appended meanwhile.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryRecordSchema, type MemoryRecord } from '../kernel/index.js';
import { storageError } from './fs-errors.js';

interface Tombstone {
  tombstone: string;
  at: number;
}

export interface MemoryFileProblem {
  text: string;
  reason: string;
}

export class MemoryFile {
  private readonly records = new Map<string, MemoryRecord>();
  /** Ids tombstoned: final, a later copy of the record never brings it back. */
  private readonly dead = new Set<string>();
  /** Bytes of the file parsed so far (always at a line end), and which file they were in. */
  private offset = 0;
  private ino = -1;
  /** Lines that were not valid records or tombstones, set aside when the file was opened. */
  readonly problems: MemoryFileProblem[] = [];

  private constructor(readonly file: string) {}

  /** Opens (creating its folder), sets bad lines aside and compacts when anything can be dropped. */
  static open(file: string): MemoryFile {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
    } catch (err) {
      throw storageError(err, 'the memory folder', path.dirname(file));
    }
    const mf = new MemoryFile(file);
    const { text, dropped } = mf.readAll(true);
    // Compacting only saves space: a disk too full for it leaves the file as it is.
    if (dropped)
      try {
        mf.compact(text);
      } catch {
        mf.readAll(false);
      }
    return mf;
  }

  live(): MemoryRecord[] {
    this.refresh();
    return [...this.records.values()];
  }

  has(id: string): boolean {
    this.refresh();
    return this.records.has(id);
  }

  append(record: MemoryRecord): void {
    this.writeLine(JSON.stringify(record));
    this.refresh();
  }

  tombstone(id: string, at: number): void {
    this.writeLine(JSON.stringify({ tombstone: id, at } satisfies Tombstone));
    this.refresh();
  }

  /**
   * Appends one line, durably. If the file was replaced (compacted by another process) between
   * our open and our write, the line went to the old file: it is written again to the live one.
   * A record written twice is harmless (ids are unique; a tombstone is final). A write that does
   * not land whole (a full disk) throws a StorageError naming the file, and its part is cut off
   * again when no other writer appended after it (else it is a bad line, set aside at next open).
   */
  private writeLine(json: string): void {
    const line = Buffer.from(`\n${json}\n`);
    for (let attempt = 0; attempt < 5; attempt++) {
      let fd: number;
      try {
        fd = fs.openSync(this.file, 'a', 0o600);
      } catch (err) {
        throw storageError(err, 'the memory file', this.file);
      }
      try {
        appendWhole(fd, line, this.file);
        if (fs.fstatSync(fd).ino === inodeOf(this.file)) return;
      } finally {
        fs.closeSync(fd);
      }
    }
    throw new Error(`Could not append to ${this.file}: it kept being replaced.`);
  }

  /**
   * Reads what other processes appended since (or everything, if the file was replaced). The
   * file is opened first and its inode read from the descriptor, so the bytes read are the bytes
   * of the file compared. A replaced file is read only once its compaction is over: until then
   * it lacks the lines appended during the compaction, and a record would seem to vanish.
   */
  private refresh(): void {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return this.reset(-1);
    }
    try {
      const st = fs.fstatSync(fd);
      if (st.ino !== this.ino) {
        if (waitForCompaction(this.file)) this.readAll(false);
        else this.readWhole(fd);
        return;
      }
      if (st.size <= this.offset) return;
      const buf = Buffer.alloc(st.size - this.offset);
      const n = fs.readSync(fd, buf, 0, buf.length, this.offset);
      this.ingest(buf.subarray(0, n), false);
    } finally {
      fs.closeSync(fd);
    }
  }

  private reset(ino: number): void {
    this.records.clear();
    this.dead.clear();
    this.offset = 0;
    this.ino = ino;
  }

  /** Parses the whole file; `dropped` says whether a compaction would shrink it. */
  private readAll(atOpen: boolean): { text: Buffer; dropped: boolean } {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      this.reset(-1);
      return { text: Buffer.alloc(0), dropped: false };
    }
    try {
      return this.readWhole(fd, atOpen);
    } finally {
      fs.closeSync(fd);
    }
  }

  private readWhole(fd: number, atOpen = false): { text: Buffer; dropped: boolean } {
    this.reset(fs.fstatSync(fd).ino);
    const text = fs.readFileSync(fd);
    return { text, dropped: this.ingest(text, atOpen) };
  }

  /**
   * Parses complete lines and advances the offset past them. At open, an unfinished last line
   * is set aside (a copy in `<file>.torn`) but stays in the file. Returns true when some line
   * is not needed (a tombstone, a replaced record, a bad line).
   */
  private ingest(bytes: Buffer, atOpen: boolean): boolean {
    const end = bytes.lastIndexOf(0x0a) + 1;
    const lines = bytes.subarray(0, end).toString('utf8').split('\n');
    let dropped = false;
    for (const line of lines) if (line.trim() !== '' && !this.apply(line, atOpen)) dropped = true;
    this.offset += end;
    // The offset stays at the last line end: an unfinished tail may be another process's write
    // still under way (a write that crosses a page is seen in parts), so it is never skipped or
    // compacted away. If it is a crash's, the next line's leading newline closes it into a bad line.
    if (atOpen && end < bytes.length) {
      this.setAside(bytes.subarray(end).toString('utf8'), 'cut off mid-write (a crash, or a write under way)');
      dropped = true;
    }
    return dropped || this.dead.size > 0;
  }

  /** Applies one line; false when the line is redundant or bad. */
  private apply(line: string, atOpen: boolean): boolean {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      if (atOpen) this.setAside(line, `not JSON: ${(err as Error).message}`);
      return false;
    }
    if (isTombstone(value)) {
      this.records.delete(value.tombstone);
      this.dead.add(value.tombstone);
      return false;
    }
    const parsed = MemoryRecordSchema.safeParse(value);
    if (!parsed.success) {
      if (atOpen) this.setAside(line, parsed.error.issues[0]?.message ?? 'not a memory record');
      return false;
    }
    if (this.dead.has(parsed.data.id)) return false;
    const replaced = this.records.has(parsed.data.id);
    this.records.set(parsed.data.id, parsed.data);
    return !replaced;
  }

  private setAside(text: string, reason: string): void {
    this.problems.push({ text, reason });
    try {
      fs.appendFileSync(`${this.file}.torn`, `${JSON.stringify({ reason, text })}\n`, { mode: 0o600 });
    } catch {
      // A full disk: the line stays in the memory file (skipped when read) until it can be moved.
    }
  }

  /**
   * Rewrites the file with live records only, under a lock file so two compactions never race.
   * Lines appended after our read are copied from the old file after the rename; writers that
   * still write to the old file afterwards notice the replacement and write again.
   */
  private compact(read: Buffer): void {
    const lock = `${this.file}.lock`;
    let lockFd: number;
    try {
      lockFd = fs.openSync(lock, 'wx', 0o600);
    } catch {
      return; // another process is compacting; this one just reads
    }
    try {
      const old = fs.openSync(this.file, 'r');
      try {
        if (fs.fstatSync(old).ino !== this.ino) return;
        const tmp = `${this.file}.${process.pid}.tmp`;
        const body = [...this.records.values()].map((r) => `${JSON.stringify(r)}\n`).join('');
        try {
          const fd = fs.openSync(tmp, 'w', 0o600);
          try {
            fs.writeFileSync(fd, body);
            fs.fsyncSync(fd);
          } finally {
            fs.closeSync(fd);
          }
        } catch (err) {
          fs.rmSync(tmp, { force: true });
          throw err;
        }
        fs.renameSync(tmp, this.file);
        // From the last whole line read: an unfinished tail is copied, not lost (see ingest).
        const late = readFrom(old, read.lastIndexOf(0x0a) + 1);
        if (late.length > 0) fs.appendFileSync(this.file, Buffer.concat([Buffer.from('\n'), late, Buffer.from('\n')]));
        this.readAll(false);
      } finally {
        fs.closeSync(old);
      }
    } finally {
      fs.closeSync(lockFd);
      fs.rmSync(lock, { force: true });
    }
  }
}

/**
 * Waits (a few milliseconds, as a compaction takes) until no compaction holds the file's lock;
 * true when it ended, so the file must be opened again. A lock left by a crashed process is
 * waited on for at most two seconds.
 */
function waitForCompaction(file: string): boolean {
  const lock = `${file}.lock`;
  if (!fs.existsSync(lock)) return false;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + 2000; fs.existsSync(lock) && Date.now() < deadline; ) Atomics.wait(pause, 0, 0, 5);
  return true;
}

/** One write(2) and an fsync; what a short write left is cut again if no one appended after it. */
function appendWhole(fd: number, line: Buffer, file: string): void {
  const before = fs.fstatSync(fd).size;
  let written = 0;
  try {
    written = fs.writeSync(fd, line);
    if (written !== line.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
    fs.fsyncSync(fd);
  } catch (err) {
    try {
      if (fs.fstatSync(fd).size === before + written) fs.ftruncateSync(fd, before);
    } catch {
      // Left as a torn line: set aside when the file is next opened.
    }
    throw storageError(err, 'the memory file', file);
  }
}

function isTombstone(value: unknown): value is Tombstone {
  return typeof (value as Tombstone | null)?.tombstone === 'string';
}

function inodeOf(file: string): number {
  return statOrUndefined(file)?.ino ?? -2;
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

function readFrom(fd: number, position: number): Buffer {
  const size = fs.fstatSync(fd).size;
  if (size <= position) return Buffer.alloc(0);
  const buf = Buffer.alloc(size - position);
  const n = fs.readSync(fd, buf, 0, buf.length, position);
  return buf.subarray(0, n);
}
