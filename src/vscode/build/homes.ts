// Where a window keeps its tasks and checkpoints: folder-keyed homes shared by the windows of a
// folder (older per-window ones adopted), per-window without a folder.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { adoptOldCheckpoints, adoptOldTasks, checkpointHome, taskHome } from '../../host/tasks/task-home.js';

/** The shared, folder-keyed task home (older per-window tasks adopted); per-window without a folder. */
export async function tasksFolder(
  context: vscode.ExtensionContext,
  folder: vscode.Uri | undefined,
  info: (m: string) => void,
): Promise<string> {
  const perWindow = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'tasks');
  if (!folder) return perWindow;
  const home = taskHome(context.globalStorageUri.fsPath, folder.toString());
  const adopted = await adoptOldTasks(perWindow, home).catch(() => 0);
  if (adopted > 0) info(`moved ${adopted} task(s) into the shared history of this folder`);
  return home;
}

/** The folder-keyed checkpoint home, beside the shared tasks; per-window without a folder. */
export async function checkpointsFolder(
  context: vscode.ExtensionContext,
  folder: vscode.Uri | undefined,
  info: (m: string) => void,
): Promise<string> {
  const perWindow = (context.storageUri ?? context.globalStorageUri).fsPath;
  if (!folder) return perWindow;
  const home = checkpointHome(context.globalStorageUri.fsPath, folder.toString());
  if (await adoptOldCheckpoints(perWindow, home).catch(() => false)) info('moved this window’s checkpoints beside the shared task history');
  return home;
}
