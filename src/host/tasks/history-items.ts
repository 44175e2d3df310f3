// The task history as a list to pick from: newest first, grouped under one heading per day
// ("Today", "Yesterday", then the date), each task's title first with its time and status under.
// Pure, so the grouping is tested without VS Code. Tasks that share a title (every "Fix the
// failing tests") get their start time, and a number if that repeats too, so no two rows read alike.
import type { TaskList } from '../../protocol/index.js';

export type HistoryRow = { kind: 'day'; label: string } | { kind: 'task'; id: string; title: string; detail: string; current: boolean };

const STATUS_WORDS: Record<string, string> = {
  idle: 'idle',
  running: 'running',
  waiting_for_approval: 'waiting for approval',
  executing: 'running',
  // The run ended by itself: Keel cannot tell a fixed task from one the model gave up on, so it
  // does not claim "done".
  completed: 'ended',
  failed: 'failed',
  cancelled: 'stopped',
};

/** Local calendar day, as a sortable key. */
const dayKey = (t: number): string => {
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

function dayLabel(t: number, now: number): string {
  if (dayKey(t) === dayKey(now)) return 'Today';
  if (dayKey(t) === dayKey(now - 86_400_000)) return 'Yesterday';
  return new Date(t).toLocaleDateString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}

export function historyRows(list: TaskList, now: number): HistoryRow[] {
  const rows: HistoryRow[] = [];
  let day = '';
  for (const task of [...list.tasks].sort((a, b) => b.updatedAt - a.updatedAt)) {
    const key = dayKey(task.updatedAt);
    if (key !== day) {
      day = key;
      rows.push({ kind: 'day', label: dayLabel(task.updatedAt, now) });
    }
    const time = new Date(task.updatedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    rows.push({
      kind: 'task',
      id: task.id,
      title: task.title,
      detail: `${time} · ${STATUS_WORDS[task.status] ?? task.status}`,
      current: task.id === list.currentTaskId,
    });
  }
  return rows;
}

const clock = (t: number) => new Date(t).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
const dayAndClock = (t: number) => `${new Date(t).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${clock(t)}`;

/**
 * Each task's title, made distinct where titles repeat: "Fix the failing tests · started 14:05"
 * (with the day when they started on different days), then " #2", " #3"… in the order started.
 */
export function distinctTitles(tasks: readonly { id: string; title: string; createdAt: number }[]): Map<string, string> {
  const byTitle = new Map<string, { id: string; title: string; createdAt: number }[]>();
  for (const t of tasks) byTitle.set(t.title, [...(byTitle.get(t.title) ?? []), t]);
  const titles = new Map<string, string>();
  for (const [title, same] of byTitle) {
    if (same.length === 1) {
      titles.set(same[0]!.id, title);
      continue;
    }
    const oneDay = new Set(same.map((t) => new Date(t.createdAt).toDateString())).size === 1;
    const when = (t: { createdAt: number }) => (oneDay ? clock(t.createdAt) : dayAndClock(t.createdAt));
    const seen = new Map<string, number>();
    for (const t of [...same].sort((a, b) => a.createdAt - b.createdAt)) {
      const label = `${title} · started ${when(t)}`;
      const n = (seen.get(label) ?? 0) + 1;
      seen.set(label, n);
      titles.set(t.id, n === 1 ? label : `${label} #${n}`);
    }
  }
  return titles;
}
