// The last build step: everything built is handed to VS Code (views, providers, commands,
// listeners) in context.subscriptions, the window's first checks run, and (test builds only) the
// test API is made.
import * as vscode from 'vscode';
import { CHAT_VIEW_ID } from '../views/chat-view.js';
import { PROPOSED_SCHEME } from '../edits/proposed-content.js';
import { registerCommands } from '../commands.js';
import { registerApprovalKeys } from '../edits/approval-keys.js';
import { registerMemoryUnavailable, registerMemoryView } from '../memory/memory-view.js';
import { newSkill, SKILLS_VIEW_ID } from '../views/skills-view.js';
import { showViewOnFirstRun } from '../views/first-run.js';
import { watchLibrary } from '../workspace/library-watcher.js';
import { mcpFiles } from '../../compose/index.js';
import { userAgentsDir, userCommandsDir } from '../../node/skill-folder.js';
import type { KeelApi } from '../test-api.js';
import type { Base } from './base.js';
import type { FolderParts } from './folder.js';
import type { TaskParts } from './tasks.js';
import type { SessionParts } from './session.js';

export interface Built {
  base: Base;
  parts: FolderParts;
  core: TaskParts;
  ui: SessionParts;
}

/** Registers what was built; VS Code disposes it in this order when the window closes. */
export function registerAll(context: vscode.ExtensionContext, { base, parts, core, ui }: Built): void {
  const { log, settings, keys } = base;
  const { workspace, skillsView, memory } = parts;
  const { session, diffs, view, picker } = ui;
  context.subscriptions.push(
    // First: the task logs are written and closed before anything they report to goes.
    { dispose: () => void core.tasks.dispose() },
    ...parts.disposables,
    base.channel,
    base.terminal,
    base.content,
    diffs,
    view,
    session,
    core.releaseLocks,
    ...ui.answering,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, base.content),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    base.guard,
    ...ui.checkpointUi.disposables,
    ...(memory ? registerMemoryView({ ...memory, workspace, log }) : registerMemoryUnavailable()),
    ...registerCommands({ session, view, diffs, keys, settings, log, redact: base.redact, workspaceRoot: workspace?.root }),
    ...registerApprovalKeys(session, diffs),
    vscode.commands.registerCommand('keel.addSelectionToChat', () => picker.addSelection()),
    keys.onDidChange(() => void session.refreshHints()),
    ...watchLibrary({
      folder: base.folder,
      userFolders: [userAgentsDir(), userCommandsDir()],
      userMcpFile: mcpFiles(undefined)[0]!.path,
      // As after a settings change: idle tasks are rebuilt from their logs, reading the files anew.
      libraryChanged: () => session.settingsChanged(),
      mcpChanged: () => parts.mcp.reload(),
      log,
    }),
    skillsView,
    vscode.window.registerTreeDataProvider(SKILLS_VIEW_ID, skillsView),
    vscode.commands.registerCommand('keel.newSkill', (name?: unknown) => newSkill(workspace, name)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      skillsView.refresh();
      log.info('workspace trusted: write and execute tools are offered from the next run on');
      void session.trustChanged();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('keel.notifications')) ui.attention.refresh();
      if (e.affectsConfiguration('keel')) void session.settingsChanged();
    }),
  );
}

/** The window's first checks: orphaned diff tabs, the first-run view, workspace settings. */
export function startWindow(context: vscode.ExtensionContext, { base, parts, ui }: Built): void {
  const { log, folder } = base;
  void ui.diffs.closeOrphans();
  void showViewOnFirstRun(context.globalState).catch((e: unknown) => log.warn(`could not show the Keel view: ${String(e)}`));
  void base.guard.check();
  log.info(
    `Keel activated (${folder ? `folder ${parts.workspace?.root ?? folder.uri.fsPath}` : 'no folder'}; trusted: ${vscode.workspace.isTrusted})`,
  );
}

export function keelApi({ base, parts, core, ui }: Built): KeelApi {
  const { session } = ui;
  return {
    tasks: core.tasks,
    session,
    diffs: ui.diffs,
    content: base.content,
    terminal: base.terminal,
    workspace: parts.workspace,
    rgPath: parts.host?.rgPath,
    getRuntime: () => session.current?.runtime,
    setProviderOverride: (fn) => core.providers.set(fn),
    settings: base.settings,
    workspaceSettings: base.guard,
    skills: parts.skillsView,
  };
}
