// Where `keel run` keeps checkpoints: a content-addressed store under the user's cache folder
// ($XDG_CACHE_HOME/keel/checkpoints, else ~/.cache/keel/checkpoints), one folder per workspace,
// never in the workspace (built by the shared src/compose/checkpoints.ts).
import * as os from 'node:os';
import * as path from 'node:path';
import { workspaceCheckpoints } from '../compose/checkpoints.js';
import type { NodeCheckpointStore } from '../node/checkpoint-store.js';

/** Keel's cache folder; the store adds `checkpoints/<workspace>` under it. */
function cliCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'keel');
}

export function cliCheckpoints(root: string, env: NodeJS.ProcessEnv, taskId: string): NodeCheckpointStore {
  return workspaceCheckpoints({ storageDir: cliCacheDir(env), root, taskId });
}
