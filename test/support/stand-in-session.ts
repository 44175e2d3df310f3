// What the host tests give a Session and a TaskStore when the test is not about them: task logs
// on disk, a key that is set, a trusted workspace, a window with no UI around the view.
import * as fs from 'node:fs';
import type { SessionDeps } from '../../src/host/session/session-deps.js';
import type { TaskLogFiles } from '../../src/host/tasks/task-store.js';
import { JsonlLogStore, loadLog } from '../../src/node/jsonl-store.js';

/** Task logs read and written as JSONL files (a missing file is an empty task). */
export const taskLogsOnDisk: TaskLogFiles = {
  load: async (f) => (fs.existsSync(f) ? loadLog(f).events : []),
  open: async (f) => JsonlLogStore.open(f),
};

/** A Session's dependencies with quiet stand-ins; `deps` gives the store, the post and anything the test looks at. */
export function standInSessionDeps(deps: Pick<SessionDeps, 'tasks' | 'post'> & Partial<SessionDeps>): SessionDeps {
  return {
    keyMissing: async () => false,
    trusted: () => true,
    model: () => ({ contextWindow: 200_000, price: undefined }),
    focusIntent: async () => false,
    watch: () => () => undefined,
    setContext: () => undefined,
    log: { info() {}, warn() {}, error() {} },
    ...deps,
  };
}
