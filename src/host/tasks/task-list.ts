// The history as the view lists it: the task shown always, others only once something was sent in
// them, titles made distinct (history-items.ts), and tasks another window holds marked.
import type { TaskList } from '../../protocol/index.js';
import { distinctTitles } from './history-items.js';
import { neverUsed } from './task-facts.js';
import type { TaskIndexEntry } from './task-index.js';

export function taskListOf(entries: readonly TaskIndexEntry[], shown: string | undefined, elsewhere: ReadonlySet<string>): TaskList {
  const listed = entries.filter((t) => t.id === shown || !neverUsed(t));
  const titles = distinctTitles(listed);
  return {
    tasks: listed.map((t) => ({
      id: t.id,
      title: titles.get(t.id) ?? t.title,
      updatedAt: t.updatedAt,
      status: t.status,
      ...(elsewhere.has(t.id) ? { elsewhere: true } : {}),
    })),
    ...(shown ? { currentTaskId: shown } : {}),
  };
}
