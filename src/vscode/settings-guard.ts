// Tells the user when a workspace tries to set one of Keel's user-only settings (where the API
// key goes, what runs unasked). Keel never reads those values (settings.ts); this makes the
// refusal visible: one warning naming the settings, shown again only when the set changes.
import * as vscode from 'vscode';
import { settingKeysIn } from '../host/settings/settings-file-keys.js';
import { ignoredMessage, ignoredWorkspaceSettings } from '../host/settings/settings.js';

export interface SettingsGuardDeps {
  warn(message: string): void;
  log(message: string): void;
}

export class WorkspaceSettingsGuard implements vscode.Disposable {
  /** Every notice shown in this window, in order (read by the integration tests). */
  readonly notices: string[] = [];
  private shown: string[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: SettingsGuardDeps) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/{.vscode/settings.json,*.code-workspace}');
    const recheck = () => void this.check();
    this.subscriptions.push(
      watcher,
      watcher.onDidChange(recheck),
      watcher.onDidCreate(recheck),
      watcher.onDidDelete(recheck),
      vscode.workspace.onDidChangeConfiguration(recheck),
      vscode.workspace.onDidChangeWorkspaceFolders(recheck),
    );
  }

  /** The user-only settings this workspace sets right now (`keel.…`). */
  async ignored(): Promise<string[]> {
    const config = vscode.workspace.getConfiguration('keel');
    return ignoredWorkspaceSettings((key) => config.inspect(key), await this.keysInWorkspaceFiles());
  }

  /** Compares with what was last shown; warns when the workspace sets something new. */
  check(): Promise<void> {
    this.queue = this.queue.then(async () => {
      const names = await this.ignored().catch(() => [] as string[]);
      if (names.join() === this.shown.join()) return;
      this.shown = names;
      if (names.length === 0) return;
      const message = ignoredMessage(names);
      this.notices.push(message);
      this.deps.log(message);
      this.deps.warn(message);
    });
    return this.queue;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }

  private async keysInWorkspaceFiles(): Promise<string[]> {
    const keys: string[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const text = await readText(vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'));
      if (text !== undefined) keys.push(...settingKeysIn(text));
    }
    const file = vscode.workspace.workspaceFile;
    const text = file && file.scheme !== 'untitled' ? await readText(file) : undefined;
    if (text !== undefined) keys.push(...settingKeysIn(text, 'settings'));
    return keys;
  }
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
