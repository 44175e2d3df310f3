// Where `keel run` keeps checkpoints: a content-addressed store under the user's cache folder
// ($XDG_CACHE_HOME/keel/checkpoints, else ~/.cache/keel/checkpoints), one folder per workspace,
// never in the workspace. Its scan honours the project's .gitignore and .keelignore.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeCheckpointStore } from '../node/checkpoint-store.js';
import { ignorePredicate } from '../tools/index.js';

/** Keel's cache folder; the store adds `checkpoints/<workspace>` under it. */
function cliCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'keel');
}

export function cliCheckpoints(root: string, env: NodeJS.ProcessEnv, taskId: string): NodeCheckpointStore {
  return new NodeCheckpointStore({
    storageDir: cliCacheDir(env),
    workspaceRoot: root,
    taskId,
    isIgnored: ignorePredicate((rel) => readTextOrUndefined(path.join(root, rel))),
  });
}

function readTextOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
