// The ids the webview may send back. A task id becomes a file name on the host
// (`<tasks>/<id>.jsonl`), so it is checked against one pattern before any path is built; an
// intent id is the kernel's own (a UUID, or a short test id). Anything else is dropped at the
// channel, before a handler runs.
import * as z from 'zod/mini';

/** Letters, digits, `-` and `_`: nothing that could climb out of the tasks folder. */
const TASK_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const INTENT_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

export const TaskIdSchema = z.string().check(z.regex(TASK_ID_PATTERN));
export const IntentIdSchema = z.string().check(z.regex(INTENT_ID_PATTERN));

export function isTaskId(id: unknown): id is string {
  return typeof id === 'string' && TASK_ID_PATTERN.test(id);
}
