// Editing an earlier message forks the task; when the task changed files after that message,
// the user is asked first whether to put them back as they were before it.
import type { RestoreOutcome } from '../../kernel/index.js';
import type { Task } from '../tasks/task.js';
import { filesChangedAfter } from '../tasks/task-facts.js';
import type { SessionDeps } from './session-deps.js';

/**
 * Asks about the files the task changed after event `seq` (if any) and restores them when
 * told to; false when the user cancelled (or the restore was declined): no fork then.
 */
export async function filesForFork(
  task: Task,
  seq: number,
  deps: Pick<SessionDeps, 'askForkFiles' | 'confirmOverwrite'>,
): Promise<boolean> {
  const paths = filesChangedAfter(task, seq);
  if (paths.length === 0) return true;
  const answer = deps.askForkFiles ? await deps.askForkFiles(paths) : 'keep';
  if (answer === undefined) return false;
  if (answer === 'keep' || !task.runtime.restoreFiles) return true;
  const outcome: RestoreOutcome = await task.runtime.restoreFiles({
    afterSeq: seq - 1,
    confirmOverwrite: deps.confirmOverwrite ?? (async () => false),
  });
  return outcome.type !== 'declined';
}
