// The checkpoint store a host uses for a task: one content-addressed store per workspace under
// the host's own storage folder (the CLI's cache, the extension's workspace storage), whose
// workspace scan honours the project's .gitignore and .keelignore. Both hosts build it here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeCheckpointStore } from '../node/checkpoint-store.js';
import { ignorePredicate } from '../tools/index.js';

export interface WorkspaceCheckpointsOptions {
  storageDir: string;
  root: string;
  taskId: string;
  maxBytes?: number;
  maxFileBytes?: number;
}

export function workspaceCheckpoints(options: WorkspaceCheckpointsOptions): NodeCheckpointStore {
  const { storageDir, root, taskId, maxBytes, maxFileBytes } = options;
  return new NodeCheckpointStore({
    storageDir,
    workspaceRoot: root,
    taskId,
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
    isIgnored: workspaceIgnore(root),
  });
}

/** The workspace's .gitignore and .keelignore rules, read from disk as a walk needs them. */
export function workspaceIgnore(root: string): (rel: string, isDir: boolean) => boolean {
  return ignorePredicate((rel) => readTextOrUndefined(path.join(root, rel)));
}

function readTextOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
