// The task index: one small JSON file listing every task (id, title, times, last status) so
// the history list shows without reading every log. Pure: parsing, updating and ordering.
// The logs are the truth; the index is rebuilt from them when it is missing or unreadable.
import { isLiveStatus, type RunStatus } from '../../kernel/contracts/index.js';
import { isTaskId } from '../../protocol/ids.js';
import { RunStatusSchema } from '../../protocol/kernel-enums.js';

export interface TaskIndexEntry {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The run status when last seen (a live run's status means it was interrupted). */
  status: RunStatus;
}

export interface TaskIndex {
  version: 1;
  tasks: TaskIndexEntry[];
  /** Ids of deleted tasks, so a window that still lists one does not bring it back by merging. */
  deleted?: string[];
}

/** Tombstones kept (a deleted task older than this many deletions is long gone from every window). */
const MAX_TOMBSTONES = 500;

function isEntry(v: unknown): v is TaskIndexEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    isTaskId(e.id) &&
    typeof e.title === 'string' &&
    Number.isFinite(e.createdAt) &&
    Number.isFinite(e.updatedAt) &&
    RunStatusSchema.options.includes(e.status as RunStatus)
  );
}

export function emptyIndex(): TaskIndex {
  return { version: 1, tasks: [] };
}

/** Undefined when the text is not a valid index (the caller rebuilds it from the logs). */
export function parseIndex(text: string): TaskIndex | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { version, tasks, deleted } = raw as { version?: unknown; tasks?: unknown; deleted?: unknown };
  if (version !== 1 || !Array.isArray(tasks) || !tasks.every(isEntry)) return undefined;
  const tombstones = Array.isArray(deleted) ? deleted.filter(isTaskId) : [];
  return {
    version: 1,
    tasks: tasks.map(({ id, title, createdAt, updatedAt, status }) => ({ id, title, createdAt, updatedAt, status })),
    ...(tombstones.length ? { deleted: tombstones } : {}),
  };
}

export function serializeIndex(index: TaskIndex): string {
  return `${JSON.stringify(index, null, 1)}\n`;
}

/** Adds the entry, or merges it into the one with the same id. */
export function upsertEntry(index: TaskIndex, entry: TaskIndexEntry): TaskIndex {
  const others = index.tasks.filter((t) => t.id !== entry.id);
  return { ...index, tasks: [...others, entry] };
}

export function patchEntry(index: TaskIndex, id: string, patch: Partial<Omit<TaskIndexEntry, 'id' | 'createdAt'>>): TaskIndex {
  return { ...index, tasks: index.tasks.map((t) => (t.id === id ? { ...t, ...patch } : t)) };
}

export function removeEntry(index: TaskIndex, id: string): TaskIndex {
  return { ...index, tasks: index.tasks.filter((t) => t.id !== id), deleted: [...(index.deleted ?? []), id].slice(-MAX_TOMBSTONES) };
}

/**
 * Another window's index (same workspace folder, same file) folded into ours: every task either
 * knows, the later-updated entry where both know one (`mine` on a tie), minus the tasks either
 * deleted (tombstones).
 */
export function mergeIndexes(mine: TaskIndex, theirs: TaskIndex): TaskIndex {
  const gone = new Set([...(theirs.deleted ?? []), ...(mine.deleted ?? [])]);
  const byId = new Map<string, TaskIndexEntry>();
  for (const entry of [...theirs.tasks, ...mine.tasks]) {
    if (gone.has(entry.id)) continue;
    const known = byId.get(entry.id);
    if (!known || entry.updatedAt >= known.updatedAt) byId.set(entry.id, entry);
  }
  const tombstones = [...gone].slice(-MAX_TOMBSTONES);
  return { version: 1, tasks: [...byId.values()], ...(tombstones.length ? { deleted: tombstones } : {}) };
}

/** Most recently updated first. */
export function listEntries(index: TaskIndex): TaskIndexEntry[] {
  return index.tasks.slice().sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
}

/**
 * A task loaded from its log whose run had not ended (no terminal event) was cut off by a
 * reload or a crash: it shows as interrupted with a Resume button until it is resumed.
 */
export function isInterrupted(status: RunStatus, liveInThisWindow: boolean): boolean {
  return !liveInThisWindow && isLiveStatus(status);
}

/** A new task id: time-ordered and safe as a file name. */
export function newTaskId(now: number, random: () => number = Math.random): string {
  const rand = Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  return `${now.toString(36).padStart(9, '0')}-${rand}`;
}
