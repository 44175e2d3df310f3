// The task history as a list to pick from: newest first, grouped under one heading per day
// ("Today", "Yesterday", then the date), each task's title first with its time and status under.
// Pure, so the grouping is tested without VS Code.
import type { TaskList } from '../../protocol/index.js';

export type HistoryRow = { kind: 'day'; label: string } | { kind: 'task'; id: string; title: string; detail: string; current: boolean };

const STATUS_WORDS: Record<string, string> = {
  idle: 'idle',
  running: 'running',
  waiting_for_approval: 'waiting for approval',
  executing: 'running',
  completed: 'done',
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
