// The first time Keel starts for a user, its view opens by itself: a new user (or `npm start`,
// which always runs a fresh profile) lands on Keel instead of hunting for its icon.
import * as vscode from 'vscode';

const SHOWN_KEY = 'keel.viewShownOnce';

export async function showViewOnFirstRun(state: vscode.Memento): Promise<void> {
  if (state.get<boolean>(SHOWN_KEY)) return;
  await state.update(SHOWN_KEY, true);
  await vscode.commands.executeCommand('workbench.view.extension.keel');
}
