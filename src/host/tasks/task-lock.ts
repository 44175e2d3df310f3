// One window drives a task at a time. History is shared by every window and browser tab on a
// folder (task-home.ts), so a task running in one tab shows as interrupted in another, whose
// Resume would drive the same log twice. A lock file beside the task's log says who drives it:
// created exclusively (O_EXCL), holding the owner's pid and window id, its mtime refreshed while
// the task runs. A lock whose heartbeat is older than `staleMs`, or whose process is gone, is
// taken over. The clock and the liveness check are injected (tests never race a real clock).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface LockHolder {
  pid: number;
  /** The window (extension host session) that holds it. */
  window: string;
}

export interface TaskLocksOptions {
  /** The shared task folder: `<task id>.lock` sits beside `<task id>.jsonl`. */
  dir: string;
  self: LockHolder;
  /** How long a lock lives without a heartbeat. */
  staleMs: number;
  now(): number;
  /** Whether a process of this machine is alive (process.kill(pid, 0)). */
  isAlive(pid: number): boolean;
}

export type ClaimOutcome = { ok: true } | { ok: false; holder: LockHolder };

export const HELD_ELSEWHERE = 'This task is running in another window.';

export class TaskLocks {
  private readonly held = new Set<string>();

  constructor(private readonly options: TaskLocksOptions) {}

  /** Takes the task's lock for this window (again: fine); refused while another live window holds it. */
  async claim(taskId: string): Promise<ClaimOutcome> {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await fs.open(this.file(taskId), 'wx');
        try {
          await handle.writeFile(JSON.stringify(this.options.self));
        } finally {
          await handle.close();
        }
        await this.touch(taskId);
        this.held.add(taskId);
        return { ok: true };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await this.liveHolder(taskId);
      if (holder && this.isSelf(holder)) {
        this.held.add(taskId);
        await this.touch(taskId);
        return { ok: true };
      }
      if (holder) return { ok: false, holder };
      // Stale: removed, then one more exclusive create (a racing window may still win it).
      await fs.rm(this.file(taskId), { force: true });
    }
    const holder = await this.liveHolder(taskId);
    return holder ? { ok: false, holder } : { ok: false, holder: { pid: 0, window: 'unknown' } };
  }

  /** The live holder when it is another window; undefined when free, stale or ours. */
  async heldElsewhere(taskId: string): Promise<LockHolder | undefined> {
    const holder = await this.liveHolder(taskId);
    return holder && !this.isSelf(holder) ? holder : undefined;
  }

  /** Refreshes the heartbeat of every lock this window holds (called on a timer while it runs). */
  async beat(): Promise<void> {
    for (const id of this.held) await this.touch(id).catch(() => undefined);
  }

  /** Lets the task go (its run ended); never removes another window's lock. */
  async release(taskId: string): Promise<void> {
    if (!this.held.delete(taskId)) return;
    const holder = await this.readHolder(taskId);
    if (holder && this.isSelf(holder)) await fs.rm(this.file(taskId), { force: true });
  }

  async releaseAll(): Promise<void> {
    for (const id of [...this.held]) await this.release(id);
  }

  private async liveHolder(taskId: string): Promise<LockHolder | undefined> {
    const stat = await fs.stat(this.file(taskId)).catch(() => undefined);
    if (!stat) return undefined;
    const holder = await this.readHolder(taskId);
    // Unreadable: being written this instant by its creator; fresh by its mtime, so it counts.
    if (this.options.now() - stat.mtimeMs > this.options.staleMs) return undefined;
    if (!holder) return { pid: 0, window: 'unknown' };
    if (!this.isSelf(holder) && !this.options.isAlive(holder.pid)) return undefined;
    return holder;
  }

  private async readHolder(taskId: string): Promise<LockHolder | undefined> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.file(taskId), 'utf8')) as Partial<LockHolder>;
      return typeof parsed.pid === 'number' && typeof parsed.window === 'string' ? { pid: parsed.pid, window: parsed.window } : undefined;
    } catch {
      return undefined;
    }
  }

  private isSelf(holder: LockHolder): boolean {
    return holder.pid === this.options.self.pid && holder.window === this.options.self.window;
  }

  private async touch(taskId: string): Promise<void> {
    const at = new Date(this.options.now());
    await fs.utimes(this.file(taskId), at, at);
  }

  private file(taskId: string): string {
    return path.join(this.options.dir, `${taskId}.lock`);
  }
}

/** process.kill(pid, 0): alive unless the process is gone (EPERM: alive, someone else's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
