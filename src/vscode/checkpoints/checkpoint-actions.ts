// What the transcript's checkpoint buttons do: Compare (VS Code's multi-file diff of a step, or
// of a whole run, against now), Restore files to here (after a modal confirm listing the files
// the user changed since), Restore task to here (a fork of the task up to that point: the
// original log is kept as it is), or both.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { visibleText, type RestoreOutcome } from '../../kernel/index.js';
import type { RestoreMode, WebviewMessage } from '../../protocol/index.js';
import { checkpointUri } from './checkpoint-content.js';
import type { WebviewMessageHandlers } from '../../host/presenter/index.js';
import { netChanges } from '../../host/presenter/checkpoint-mapper.js';
import { compareTitle } from '../../host/edits/diff-tabs.js';
import type { Session } from '../../host/session/session.js';
import type { Task } from '../../host/tasks/task.js';
import type { TaskStore } from '../../host/tasks/task-store.js';

export interface CheckpointActionDeps {
  session: Session;
  tasks: TaskStore;
  root: string | undefined;
  /** Counts the checkpoint blobs a forked task uses to it (see TaskCheckpoints.retain). */
  retain(taskId: string, hashes: readonly string[]): Promise<void>;
  log: { warn(m: string): void };
}

const OVERWRITE = 'Overwrite';
/** Files named in the confirm; the rest are counted. */
const LISTED = 20;

export function checkpointHandlers(d: CheckpointActionDeps): WebviewMessageHandlers {
  return {
    'checkpoint/compare': (m) => shown(d, compare(d, m)),
    'checkpoint/restore': (m) => shown(d, restore(d, m.afterSeq, m.mode)),
  };
}

/** A failure (a blob collected, a file locked) is a message to the user, never a stack trace. */
async function shown(d: CheckpointActionDeps, work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    d.log.warn(`checkpoint action failed: ${message}`);
    void vscode.window.showErrorMessage(`Keel: ${message}`);
  }
}

async function compare(d: CheckpointActionDeps, m: Extract<WebviewMessage, { type: 'checkpoint/compare' }>): Promise<void> {
  const task = d.session.current;
  if (!task || d.root === undefined) return;
  const root = d.root;
  const inRange = task.getState().checkpoints.filter((c) => c.seq >= m.fromSeq && c.seq <= m.toSeq);
  const skipped = new Set(inRange.flatMap((c) => c.files.filter((f) => f.skipped).map((f) => f.path)));
  const files = netChanges(inRange.flatMap((c) => c.files)).filter((f) => m.path === undefined || visibleText(f.path) === m.path);
  const shown = files.filter((f) => !skipped.has(f.path));
  if (skipped.size > 0)
    void vscode.window.showWarningMessage(`Keel did not keep ${[...skipped].join(', ')} (over the size cap): not compared.`);
  if (shown.length === 0) return void vscode.window.showInformationMessage('Keel: no change to compare here.');
  const triples = shown.map((f) => {
    const file = vscode.Uri.file(path.join(root, f.path));
    return [file, checkpointUri(file, f.before), f.after === null ? checkpointUri(file, null) : file];
  });
  const title = compareTitle(
    shown.map((f) => f.path),
    m.fromSeq !== m.toSeq,
  );
  await vscode.commands.executeCommand('vscode.changes', title, triples);
}

async function restore(d: CheckpointActionDeps, afterSeq: number, mode: RestoreMode): Promise<void> {
  const task = d.session.current;
  if (!task) return;
  if (task.busy) return void vscode.window.showWarningMessage('Keel: stop the task (or let it finish) before restoring.');
  if (mode !== 'task') {
    const outcome = await restoreFiles(task, afterSeq);
    if (outcome === undefined || outcome.type === 'declined') return;
    report(outcome);
  }
  if (mode !== 'files') {
    const step = stepAt(task, afterSeq);
    const fork = await d.tasks.fork(task.id, afterSeq, `${task.entry.title} (from step ${step})`);
    const files = fork.getState().checkpoints.flatMap((c) => c.files.filter((f) => !f.skipped));
    await d.retain(fork.id, [...new Set(files.flatMap((f) => [f.before, f.after]).filter((h): h is string => h !== null))]);
    await d.session.openTask(fork.id);
  }
}

async function restoreFiles(task: Task, afterSeq: number): Promise<RestoreOutcome | undefined> {
  if (!task.runtime.restoreFiles) {
    void vscode.window.showWarningMessage('Keel: this task keeps no checkpoints (no folder is open).');
    return undefined;
  }
  return task.runtime.restoreFiles({ afterSeq, confirmOverwrite: confirm });
}

/** The modal question before files someone else changed are overwritten (a restore, an edit's resend). */
export async function confirm(paths: readonly string[]): Promise<boolean> {
  const listed = paths.slice(0, LISTED).map(visibleText);
  const more = paths.length > LISTED ? [`… and ${paths.length - LISTED} more`] : [];
  const pick = await vscode.window.showWarningMessage(
    `${paths.length === 1 ? 'This file was' : `${paths.length} files were`} changed after Keel last wrote ${paths.length === 1 ? 'it' : 'them'}. Overwrite with the checkpoint?`,
    { modal: true, detail: [...listed, ...more].join('\n') },
    OVERWRITE,
  );
  return pick === OVERWRITE;
}

function report(outcome: Exclude<RestoreOutcome, { type: 'declined' }>): void {
  if (outcome.unrestorable.length > 0)
    void vscode.window.showWarningMessage(
      `Keel could not restore ${outcome.unrestorable.map(visibleText).join(', ')}: too large to keep a checkpoint.`,
    );
  if (outcome.type === 'nothing') void vscode.window.showInformationMessage('Keel: the files are already as they were at this point.');
}

/** The model turn at `afterSeq` (for the fork's title). */
function stepAt(task: Task, afterSeq: number): number {
  let step = 0;
  for (const e of task.getEvents()) {
    if (e.seq > afterSeq) break;
    if (e.type === 'turn_started') step = e.turn;
  }
  return step;
}
