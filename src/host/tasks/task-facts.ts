// What the session reads from a task to decide: the message behind its latest run when that run
// failed (Retry), the files it changed after a message (edit and resend), and whether it was
// ever used (the history leaves out tasks nothing was sent in). Pure, over the task's log.
import { endsRun, type RunStatus, type RuntimeEvent } from '../../kernel/contracts/index.js';
import { netChanges } from '../presenter/checkpoint-mapper.js';
import { NEW_TASK_TITLE } from '../session/prompts.js';
import type { Task } from './task.js';

type UserMessage = Extract<RuntimeEvent, { type: 'user_message' }>;

/**
 * The user message that started the task's latest run, when that run failed (and, given, its
 * failure notice is `noticeId`); undefined otherwise.
 */
export function failedMessage(task: Pick<Task, 'getEvents'>, noticeId: string | undefined): UserMessage | undefined {
  const events = task.getEvents();
  const end = events.findLast((e) => e.frame === undefined && endsRun(e.type));
  if (end?.type !== 'run_failed' || (noticeId !== undefined && noticeId !== `n${end.seq}`)) return undefined;
  return events.findLast((e): e is UserMessage => e.type === 'user_message' && e.runId === end.runId);
}

/** The files the task changed (net) after event `seq`, by its checkpoints. */
export function filesChangedAfter(task: Pick<Task, 'getState'>, seq: number): string[] {
  const after = task.getState().checkpoints.filter((c) => c.seq > seq);
  return netChanges(after.flatMap((c) => c.files)).map((f) => f.path);
}

/** A task created (New Task) and left before any message: its title and status never changed. */
export function neverUsed(entry: { title: string; status: RunStatus }): boolean {
  return entry.title === NEW_TASK_TITLE && entry.status === 'idle';
}
