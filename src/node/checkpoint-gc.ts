// Which blobs each task uses (one small JSON file per task), and the collection that keeps a
// workspace's checkpoints under their cap: the oldest tasks' blobs go first, and a blob still
// used by a newer task stays.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from './atomic-write.js';
import { storageError } from './fs-errors.js';

interface TaskRecord {
  time: number;
  hashes: string[];
}

export class TaskIndex {
  private readonly hashes = new Set<string>();
  private loaded = false;
  private dirty = false;

  constructor(
    private readonly dir: string,
    private readonly taskId: string,
    private readonly now: () => number,
  ) {}

  add(hash: string): void {
    if (this.hashes.has(hash)) return;
    this.hashes.add(hash);
    this.dirty = true;
  }

  /** Writes the task's record whole, or throws a StorageError naming it (and stays dirty). */
  async save(): Promise<void> {
    if (!this.loaded) await this.load();
    if (!this.dirty) return;
    const record: TaskRecord = { time: this.now(), hashes: [...this.hashes] };
    try {
      await fs.mkdir(this.dir, { recursive: true });
      await atomicWrite(this.file(), new TextEncoder().encode(JSON.stringify(record)));
    } catch (err) {
      throw storageError(err, 'the checkpoint index', this.file());
    }
    this.dirty = false;
  }

  /** A task continued after a reload keeps the blobs it used before. */
  private async load(): Promise<void> {
    this.loaded = true;
    const record = await readRecord(this.file());
    for (const h of record?.hashes ?? []) this.hashes.add(h);
  }

  private file(): string {
    return path.join(this.dir, `${encodeURIComponent(this.taskId)}.json`);
  }
}

async function readRecord(file: string): Promise<TaskRecord | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as TaskRecord;
    return typeof parsed.time === 'number' && Array.isArray(parsed.hashes) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the oldest tasks (never `keepTask`) and their unshared blobs until under `maxBytes`. */
export async function collectGarbage(dir: string, maxBytes: number, keepTask: string): Promise<void> {
  const blobsDir = path.join(dir, 'blobs');
  const sizes = await blobSizes(blobsDir);
  let total = [...sizes.values()].reduce((a, b) => a + b, 0);
  if (total <= maxBytes) return;
  const tasksDir = path.join(dir, 'tasks');
  const names = await fs.readdir(tasksDir).catch(() => [] as string[]);
  const tasks = [];
  for (const name of names) {
    const record = await readRecord(path.join(tasksDir, name));
    if (record) tasks.push({ name, ...record });
  }
  tasks.sort((a, b) => a.time - b.time);
  const users = new Map<string, number>();
  for (const t of tasks) for (const h of t.hashes) users.set(h, (users.get(h) ?? 0) + 1);
  for (const task of tasks) {
    if (total <= maxBytes) break;
    if (task.name === `${encodeURIComponent(keepTask)}.json`) continue;
    await fs.rm(path.join(tasksDir, task.name), { force: true });
    for (const h of task.hashes) {
      const left = (users.get(h) ?? 1) - 1;
      users.set(h, left);
      if (left > 0 || !sizes.has(h)) continue;
      await fs.rm(path.join(blobsDir, h.slice(0, 2), h), { force: true });
      total -= sizes.get(h)!;
    }
  }
}

async function blobSizes(blobsDir: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const shard of await fs.readdir(blobsDir).catch(() => [] as string[])) {
    for (const name of await fs.readdir(path.join(blobsDir, shard)).catch(() => [] as string[])) {
      const stat = await fs.stat(path.join(blobsDir, shard, name)).catch(() => undefined);
      if (stat) sizes.set(name, stat.size);
    }
  }
  return sizes;
}
