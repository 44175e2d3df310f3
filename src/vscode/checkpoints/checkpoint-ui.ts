// Wires checkpoints into the extension: the read-only `keel-checkpoint:` documents Compare
// shows, the `keel-replay:` reports, the transcript's checkpoint buttons, the Files changed
// counts, collection after each run, and the Keel: Replay Task command.
import * as vscode from 'vscode';
import { withLineCounts } from '../../host/tasks/change-counts.js';
import { checkpointHandlers } from './checkpoint-actions.js';
import { CHECKPOINT_SCHEME, CheckpointContentProvider } from './checkpoint-content.js';
import type { WebviewMessageHandlers } from '../../host/presenter/index.js';
import { REPLAY_SCHEME, ReplayReports, replayTask } from '../replay-task.js';
import type { Session } from '../../host/session/session.js';
import type { KeelSettings } from '../../host/settings/settings.js';
import type { Task } from '../../host/tasks/task.js';
import type { TaskCheckpoints } from '../../host/tasks/task-checkpoints.js';
import type { TaskStore } from '../../host/tasks/task-store.js';

export interface CheckpointUiDeps {
  session: Session;
  tasks: TaskStore;
  checkpoints: TaskCheckpoints;
  root: string | undefined;
  settings(): KeelSettings;
  log: { warn(m: string): void };
}

export class CheckpointUi {
  readonly handlers: WebviewMessageHandlers;
  readonly disposables: vscode.Disposable[];

  constructor(private readonly d: CheckpointUiDeps) {
    const read = async (hash: string) => d.checkpoints.reader()?.read(hash);
    const reports = new ReplayReports();
    this.handlers = checkpointHandlers({
      session: d.session,
      tasks: d.tasks,
      root: d.root,
      retain: (taskId, hashes) => d.checkpoints.retain(taskId, hashes),
      log: d.log,
    });
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, new CheckpointContentProvider(read)),
      vscode.workspace.registerTextDocumentContentProvider(REPLAY_SCHEME, reports),
      vscode.commands.registerCommand('keel.replayTask', () =>
        replayTask({ tasks: d.tasks, root: d.root, settings: d.settings, read, reports }).catch((error: unknown) => {
          void vscode.window.showErrorMessage(`Keel: the replay failed: ${error instanceof Error ? error.message : String(error)}`);
        }),
      ),
    ];
  }

  /** The shown task's Files changed summaries get their +/− counts; a finished run's store is trimmed. */
  changesShown(task: Task, runEnded: boolean): void {
    if (runEnded) void this.d.checkpoints.collect(task.id);
    void this.fillCounts(task).catch((error: unknown) => this.d.log.warn(`could not count the changed lines: ${String(error)}`));
  }

  private async fillCounts(task: Task): Promise<void> {
    const reader = this.d.checkpoints.reader();
    const root = this.d.root;
    if (!reader || root === undefined) return;
    const presenter = this.d.session.presenter;
    for (const item of presenter.items()) {
      if (item.kind !== 'changes' || item.files.every((f) => f.added !== undefined)) continue;
      const counted = await withLineCounts(item, task.getState().checkpoints, {
        root,
        read: (h) => reader.read(h),
        hashes: (p) => reader.hashes(p),
      });
      // Another task may be shown by now: its items are not this task's.
      if (this.d.session.current === task) presenter.replaceItem(counted);
    }
  }
}
