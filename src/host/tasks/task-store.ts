// Every task of this workspace: `<dir>/<id>.jsonl` (the log, the truth) plus `<dir>/index.json`
// (titles and times for the history list). Every window on the same workspace folder shares the
// folder (the host keys it by the folder's identity), so index writes merge what is on disk
// first and `refresh()` picks up other windows' tasks. No vscode import: the host passes the folder, the
// log files port and a runtime factory, so a reload can be tested by building a second store.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isLiveStatus, type LogStore, type RunStatus, type RuntimeEvent } from '../../kernel/contracts/index.js';
import { replay } from '../../kernel/reducer.js';
import { Task, type TaskRuntime } from './task.js';
import {
  emptyIndex,
  listEntries,
  mergeIndexes,
  newTaskId,
  parseIndex,
  patchEntry,
  removeEntry,
  serializeIndex,
  upsertEntry,
  type TaskIndex,
  type TaskIndexEntry,
} from './task-index.js';
import { NEW_TASK_TITLE, taskTitleFrom } from '../session/prompts.js';
import { isTaskId } from '../../protocol/ids.js';
import { atomicWrite } from '../../node/atomic-write.js';
import { storageError } from '../../node/fs-errors.js';

/** How the store reads and appends logs (the JSONL store from src/node in the extension). */
export interface TaskLogFiles {
  load(file: string): Promise<readonly RuntimeEvent[]>;
  open(file: string): Promise<LogStore & { close?(): Promise<void> | void }>;
}

export interface RuntimeInit {
  taskId: string;
  /** The loaded log (empty for a new task). */
  events: readonly RuntimeEvent[];
  store: LogStore;
}

export interface TaskStoreOptions {
  dir: string;
  logs: TaskLogFiles;
  createRuntime(init: RuntimeInit): TaskRuntime;
  onStatus?(task: Task, status: RunStatus): void;
  onCrash?(task: Task, error: unknown): void;
  now?: () => number;
}

export class TaskStore {
  private index: TaskIndex = emptyIndex();
  private readonly open = new Map<string, { task: Task; log: Awaited<ReturnType<TaskLogFiles['open']>> }>();
  private writes: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly options: TaskStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  get dir(): string {
    return this.options.dir;
  }

  /** The log of a task. Throws for anything but a task id: no path is ever built from one. */
  logFile(id: string): string {
    if (!isTaskId(id)) throw new Error('Not a task id.');
    return path.join(this.options.dir, `${id}.jsonl`);
  }

  /** Reads the index; rebuilds it from the log files when it is missing or unreadable. */
  async init(): Promise<void> {
    await fs.mkdir(this.options.dir, { recursive: true });
    const parsed = await this.readIndex();
    this.index = parsed ?? (await this.rebuildIndex());
    if (!parsed) await this.saveIndex();
  }

  /** Folds in the tasks other windows on this folder added or changed since the last read. */
  async refresh(): Promise<void> {
    await this.writes.catch(() => undefined);
    const theirs = await this.readIndex();
    // Every change here is saved at once, so what is on disk is at least as new: it wins ties.
    if (theirs) this.index = mergeIndexes(theirs, this.index);
  }

  list(): TaskIndexEntry[] {
    return listEntries(this.index);
  }

  entry(id: string): TaskIndexEntry | undefined {
    return this.index.tasks.find((t) => t.id === id);
  }

  /** A task already open in this window, without loading anything. */
  loaded(id: string): Task | undefined {
    return this.open.get(id)?.task;
  }

  async create(title = NEW_TASK_TITLE): Promise<Task> {
    const now = this.now();
    const entry: TaskIndexEntry = { id: newTaskId(now), title, createdAt: now, updatedAt: now, status: 'idle' };
    const task = await this.load(entry, []);
    this.index = upsertEntry(this.index, entry);
    await this.saveIndex();
    return task;
  }

  /** Opens a task: the same instance when it is already open, else rebuilt from its log. */
  async get(id: string): Promise<Task> {
    const live = this.open.get(id);
    if (live) return live.task;
    const entry = this.entry(id);
    if (!entry) throw new Error(`No task with id ${id}.`);
    const events = await this.options.logs.load(this.logFile(id));
    return this.load(entry, events);
  }

  /**
   * A new task whose log is a copy of task `id`'s events up to `afterSeq` (Restore task to
   * here). The original log is never rewritten: the log stays the truth of what happened, and
   * the copy goes on from that point as a task of its own.
   */
  async fork(id: string, afterSeq: number, title: string): Promise<Task> {
    const source = await this.get(id);
    const now = this.now();
    const events = closedAt(source.getEvents(), afterSeq, now);
    const entry: TaskIndexEntry = { id: newTaskId(now), title, createdAt: now, updatedAt: now, status: replay(events).status };
    const log = await this.options.logs.open(this.logFile(entry.id));
    log.append(events);
    await log.flush();
    const task = await this.load(entry, events, log);
    this.index = upsertEntry(this.index, entry);
    await this.saveIndex();
    return task;
  }

  async rename(id: string, title: string): Promise<void> {
    this.patch(id, { title, updatedAt: this.now() });
    await this.saveIndex();
  }

  /** Sets the title from the first message when the task has none yet. */
  async titleFromMessage(id: string, text: string): Promise<void> {
    const entry = this.entry(id);
    if (entry && entry.title === NEW_TASK_TITLE) await this.rename(id, taskTitleFrom(text));
  }

  /** Drops an idle task's runtime so the next `get` rebuilds it from its log. */
  async unload(id: string): Promise<boolean> {
    const live = this.open.get(id);
    if (!live || live.task.busy) return false;
    live.task.dispose();
    await live.log.flush().catch(() => undefined);
    await live.log.close?.();
    this.open.delete(id);
    return true;
  }

  /** Deletes a task this store knows (listed or open); any other id is refused. */
  async delete(id: string): Promise<void> {
    const file = this.logFile(id);
    if (!this.entry(id) && !this.open.has(id)) throw new Error(`No task with id ${id}.`);
    const live = this.open.get(id);
    if (live) {
      live.task.runtime.cancel();
      live.task.dispose();
      await live.log.flush().catch(() => undefined);
      await live.log.close?.();
      this.open.delete(id);
    }
    this.index = removeEntry(this.index, id);
    await this.saveIndex();
    await fs.rm(file, { force: true });
  }

  /** Waits for every pending index write and log append (deactivate, tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.open.values()].map((o) => o.log.flush()));
    await this.writes;
  }

  async dispose(): Promise<void> {
    for (const { task } of this.open.values()) task.dispose();
    await this.flush();
    for (const { log } of this.open.values()) await log.close?.();
    this.open.clear();
  }

  private async load(
    entry: TaskIndexEntry,
    events: readonly RuntimeEvent[],
    opened?: Awaited<ReturnType<TaskLogFiles['open']>>,
  ): Promise<Task> {
    const log = opened ?? (await this.options.logs.open(this.logFile(entry.id)));
    const runtime = this.options.createRuntime({ taskId: entry.id, events, store: log });
    const task = new Task(entry, runtime, {
      onStatus: (t, status) => {
        this.patch(t.id, { status, updatedAt: this.now() });
        void this.saveIndex();
        this.options.onStatus?.(t, status);
      },
      onCrash: (t, error) => this.options.onCrash?.(t, error),
    });
    this.open.set(entry.id, { task, log });
    return task;
  }

  private patch(id: string, patch: Partial<Omit<TaskIndexEntry, 'id' | 'createdAt'>>): void {
    this.index = patchEntry(this.index, id, patch);
    const entry = this.entry(id);
    const live = this.open.get(id);
    if (entry && live) live.task.setEntry(entry);
  }

  private indexFile(): string {
    return path.join(this.options.dir, 'index.json');
  }

  /**
   * An atomic write: a crash or a full disk never leaves a half-written index (the failure is a
   * StorageError naming the file, and the old index stays).
   */
  private saveIndex(): Promise<void> {
    const file = this.indexFile();
    this.writes = this.writes
      .catch(() => undefined)
      .then(async () => {
        const theirs = await this.readIndex();
        if (theirs) this.index = mergeIndexes(this.index, theirs);
        await atomicWrite(file, new TextEncoder().encode(serializeIndex(this.index))).catch((err: unknown) => {
          throw storageError(err, 'the task history index', file);
        });
      });
    return this.writes;
  }

  private async readIndex(): Promise<TaskIndex | undefined> {
    const text = await fs.readFile(this.indexFile(), 'utf8').catch(() => undefined);
    return text === undefined ? undefined : parseIndex(text);
  }

  private async rebuildIndex(): Promise<TaskIndex> {
    let index = emptyIndex();
    const names = await fs.readdir(this.options.dir).catch(() => [] as string[]);
    for (const name of names) {
      const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
      if (!isTaskId(id)) continue;
      const events = await this.options.logs.load(path.join(this.options.dir, name)).catch(() => []);
      const first = events.find((e) => e.type === 'user_message');
      const stat = await fs.stat(path.join(this.options.dir, name));
      index = upsertEntry(index, {
        id,
        title: first && first.type === 'user_message' ? taskTitleFrom(first.text) : 'Untitled task',
        createdAt: events[0]?.time ?? stat.birthtimeMs,
        updatedAt: events[events.length - 1]?.time ?? stat.mtimeMs,
        status: replay(events).status,
      });
    }
    return index;
  }
}

/**
 * The events up to `afterSeq`; a run still going at that point is ended there (cancelled), so
 * the fork waits for the user's next message instead of offering to resume the cut run.
 */
function closedAt(all: readonly RuntimeEvent[], afterSeq: number, now: number): RuntimeEvent[] {
  const events = all.filter((e) => e.seq <= afterSeq);
  const last = events.at(-1);
  if (!last || !isLiveStatus(replay(events).status)) return events;
  return [...events, { type: 'run_cancelled', seq: last.seq + 1, runId: last.runId, time: now }];
}
