// Watches the files a task's library is read from — the workspace's and the user's custom
// agents, slash commands and prompt files, and both mcp.json files — so a file added, edited or
// deleted is picked up without a window reload: after a burst of events (debounced in
// src/host/settings/library-files.ts) the idle tasks are rebuilt and the view's lists re-read,
// and on an mcp.json change the MCP servers follow the file.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type LibraryChange, libraryDebounce, WORKSPACE_LIBRARY_GLOB, WORKSPACE_MCP_GLOB } from '../../host/settings/library-files.js';

export interface LibraryWatchDeps {
  folder: vscode.WorkspaceFolder | undefined;
  /** The user's agents and commands folders (the ones `keel run` reads). */
  userFolders: readonly string[];
  /** The user's mcp.json. */
  userMcpFile: string;
  /** Agents or commands changed: rebuild what is idle, list them again. */
  libraryChanged(): Promise<void>;
  /** An mcp.json changed: the servers follow the files. */
  mcpChanged(): Promise<void>;
  log: { warn(m: string): void };
}

export function watchLibrary(d: LibraryWatchDeps): vscode.Disposable[] {
  const debounced = libraryDebounce((kinds) => {
    // The servers first: the rebuilt tasks then get the tools of the servers as they are now.
    const reload = async () => {
      if (kinds.has('mcp')) await d.mcpChanged();
      await d.libraryChanged();
    };
    void reload().catch((e: unknown) => d.log.warn(`could not reload the changed agent, command or MCP files: ${String(e)}`));
  });
  const watched: [vscode.GlobPattern, LibraryChange][] = d.userFolders.map((dir) => [
    new vscode.RelativePattern(vscode.Uri.file(dir), '**'),
    'library',
  ]);
  watched.push([new vscode.RelativePattern(vscode.Uri.file(path.dirname(d.userMcpFile)), path.basename(d.userMcpFile)), 'mcp']);
  if (d.folder)
    watched.push(
      [new vscode.RelativePattern(d.folder, WORKSPACE_LIBRARY_GLOB), 'library'],
      [new vscode.RelativePattern(d.folder, WORKSPACE_MCP_GLOB), 'mcp'],
    );
  const out: vscode.Disposable[] = [{ dispose: () => debounced.dispose() }];
  for (const [pattern, kind] of watched) {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const changed = () => debounced.changed(kind);
    out.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
  }
  return out;
}
