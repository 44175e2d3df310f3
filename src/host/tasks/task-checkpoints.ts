// The extension's checkpoint stores: one per task (its blobs are counted to it for collection),
// all in one content-addressed folder in the workspace folder's shared home (task-home.ts: every
// window on the folder sees them, like its tasks), never in the workspace. Caps are read from the settings when a task's store is first built. No vscode import.
import type { Checkpoints } from '../../kernel/index.js';
import { workspaceCheckpoints } from '../../compose/index.js';
import type { NodeCheckpointStore } from '../../node/checkpoint-store.js';
import type { CheckpointCaps } from '../settings/checkpoint-settings.js';

export interface TaskCheckpointsOptions {
  /** The workspace folder's shared home (checkpointHome), the same for every window on it. */
  storageDir: string;
  /** The workspace folder; none: no checkpoints. */
  root: string | undefined;
  caps(): CheckpointCaps;
  warn(message: string): void;
}

/** Task id under which read-only uses (Compare, replay) open the store: they add no blobs. */
const READER_TASK = 'view';

export class TaskCheckpoints {
  private readonly stores = new Map<string, NodeCheckpointStore>();

  constructor(private readonly options: TaskCheckpointsOptions) {}

  /** The store a task records into; undefined without a folder or when it cannot be built. */
  forTask(taskId: string): Checkpoints | undefined {
    return this.store(taskId);
  }

  /** For reading stored bytes (Compare, Files changed, replay). */
  reader(): Pick<Checkpoints, 'read' | 'hashes'> | undefined {
    return this.store(READER_TASK);
  }

  /** A forked task's checkpoints stay when the task it came from is collected. */
  async retain(taskId: string, hashes: readonly string[]): Promise<void> {
    await this.store(taskId)
      ?.retain(hashes)
      .catch((error: unknown) => this.options.warn(`could not keep the fork's checkpoints (${String(error)})`));
  }

  /** Keeps the workspace's store under its cap after a run; a failure never reaches the task. */
  async collect(taskId: string): Promise<void> {
    await this.stores
      .get(taskId)
      ?.collect()
      .catch((error: unknown) => this.options.warn(`could not trim old checkpoints (${String(error)})`));
  }

  private store(taskId: string): NodeCheckpointStore | undefined {
    const root = this.options.root;
    if (root === undefined) return undefined;
    const known = this.stores.get(taskId);
    if (known) return known;
    try {
      const store = workspaceCheckpoints({ storageDir: this.options.storageDir, root, taskId, ...this.options.caps() });
      this.stores.set(taskId, store);
      return store;
    } catch (error) {
      this.options.warn(`checkpoints are off for this task: ${String(error)}`);
      return undefined;
    }
  }
}
