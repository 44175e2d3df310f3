// One writer per task log. Two processes appending to the same log (`keel resume LOG` while the
// run writing LOG goes on) interleave their sequence numbers and seal chains, and from then on
// replay, resume and restore refuse the log. So a process that writes a log first creates
// `LOG.lock` beside it with O_EXCL (atomic on local file systems: one creator wins), holding its
// pid, host and start time, and removes it when it is done. A lock whose process is gone on this
// host is stale and taken over; one from another host, or one Keel cannot read, is refused with
// what to do, never guessed at.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { storageError } from './fs-errors.js';
import { processAlive } from './process-alive.js';

interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

export type LogLock = { type: 'held'; release(): void } | { type: 'busy'; message: string };

/** The lock file of a log. */
export function lockFileOf(log: string): string {
  return `${log}.lock`;
}

/** Takes the log's lock, or says who holds it. `given`: the log as the user named it. */
export function lockLog(log: string, given = log): LogLock {
  const file = lockFileOf(log);
  const me: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  // Twice at most: the second try follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    const ino = create(file, me, log);
    if (ino !== false) return { type: 'held', release: releaser(file, ino, me) };
    const holder = readHolder(file);
    if (holder === 'gone') continue;
    if (holder !== undefined && isStale(holder)) {
      fs.rmSync(file, { force: true });
      continue;
    }
    return { type: 'busy', message: busyMessage(given, file, holder) };
  }
  return { type: 'busy', message: `${given} is being locked by another process right now (${file}); try again.` };
}

/**
 * Creates the lock file holding `me`: its inode, or false when it exists already. O_EXCL is the
 * lock; the holder inside only says who has it, so a disk too full for those bytes still locks
 * (an unreadable lock is refused by others, never taken over). A folder that cannot be made or
 * written is the log's own failure, in the log store's words.
 */
function create(file: string, me: LockHolder, log: string): number | false {
  let fd: number;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw storageError(err, 'the task log', log);
  }
  try {
    fs.writeSync(fd, `${JSON.stringify(me)}\n`);
  } catch {
    // ENOSPC, EDQUOT: the file, empty or cut, still holds the lock.
  }
  try {
    return fs.fstatSync(fd).ino;
  } finally {
    fs.closeSync(fd);
  }
}

/** The holder a lock file names; 'gone' when it vanished meanwhile; undefined when unreadable. */
function readHolder(file: string): LockHolder | 'gone' | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isSafeInteger(v.pid) && (v.pid as number) > 0 && typeof v.host === 'string' && typeof v.startedAt === 'string')
      return { pid: v.pid as number, host: v.host, startedAt: v.startedAt };
  } catch {
    // Not JSON: said as unreadable below.
  }
  return undefined;
}

/** A lock of this host whose process no longer runs. Another host's cannot be checked from here. */
function isStale(holder: LockHolder): boolean {
  return holder.host === os.hostname() && !processAlive(holder.pid);
}

function busyMessage(given: string, file: string, holder: LockHolder | undefined): string {
  if (!holder) return `${given} is locked by ${file}, which is not a lock Keel can read; remove it if no Keel is writing ${given}.`;
  const who = `pid ${holder.pid} on ${oneLine(holder.host)}, since ${oneLine(holder.startedAt)}`;
  return `${given} is being written by another Keel (${who}): wait for it to end or stop it; if that process is gone, remove ${file}.`;
}

/** A host name or date from a file anyone could write: printed on one line, short. */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}]/gu, '?').slice(0, 80);
}

/**
 * Removes the lock when the writer is done, and at exit if it never gets there (a second Ctrl+C
 * exits at once); only the file this process created (the same inode) while it names this
 * process, or names no one (the disk was too full for the holder's bytes).
 */
function releaser(file: string, ino: number, me: LockHolder): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    if (fs.lstatSync(file, { throwIfNoEntry: false })?.ino !== ino) return;
    const holder = readHolder(file);
    const mine = holder === undefined || (holder !== 'gone' && holder.pid === me.pid && holder.startedAt === me.startedAt);
    if (mine) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return release;
}
