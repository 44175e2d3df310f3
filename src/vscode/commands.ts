// Keel's commands: the palette entries, the view's title buttons and the diff editor's
// Approve / Reject. Each one reports failures as a message, never a stack trace.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatViewProvider } from './views/chat-view.js';
import type { DiffApprovals } from './edits/diff-approvals.js';
import type { KeelLog } from './keel-log.js';
import { historyRows } from '../host/tasks/history-items.js';
import { buildFixTestsPrompt } from '../host/session/prompts.js';
import type { SecretKeys } from './keys/secret-keys.js';
import type { Session } from '../host/session/session.js';
import type { KeelSettings } from '../host/settings/settings.js';

/**
 * The panel container of Memory, Skills and MCP Servers (package.json): the Chat view has the
 * side bar's container to itself, as agent chats do, and the rest is one click away.
 */
const LIBRARY_CONTAINER_ID = 'keel-library';

export interface CommandDeps {
  session: Session;
  view: ChatViewProvider;
  diffs: DiffApprovals;
  keys: SecretKeys;
  settings(): KeelSettings;
  log: KeelLog;
  /** Removes secrets from text shown in a notification. */
  redact(text: string): string;
  workspaceRoot: string | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: VS Code passes each command its own argument types
type CommandHandler = (...args: any[]) => unknown;

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const guarded =
    (name: string, fn: CommandHandler) =>
    async (...args: Parameters<CommandHandler>) => {
      try {
        return await fn(...args);
      } catch (error) {
        d.log.error(`${name} failed`, error instanceof Error ? (error.stack ?? error.message) : String(error));
        void vscode.window
          .showErrorMessage(`Keel: ${name} failed: ${d.redact(error instanceof Error ? error.message : String(error))}`, 'Show Log')
          .then((pick) => {
            if (pick) d.log.show();
          });
      }
    };
  const cmd = (id: string, name: string, fn: CommandHandler) => vscode.commands.registerCommand(id, guarded(name, fn));

  return [
    cmd('keel.newTask', 'New Task', async () => {
      await d.session.newTask();
      // A new task is for typing into: the keyboard goes to the composer, not back to the editor.
      await d.view.focusComposer();
    }),
    cmd('keel.fixFailingTests', 'Fix the Failing Tests', async () => {
      await d.view.reveal();
      await d.session.newTask();
      return d.session.send(buildFixTestsPrompt({ testCommand: await testCommandOf(d.workspaceRoot) }));
    }),
    cmd('keel.stop', 'Stop', () => d.session.stop()),
    cmd('keel.showHistory', 'Task History', () => showHistory(d)),
    cmd('keel.setApiKey', 'Set API Key', async () => {
      await d.keys.prompt(d.settings().provider);
      await d.session.refreshHints();
    }),
    cmd('keel.showLog', 'Show Log', () => d.log.show()),
    cmd('keel.showLibrary', 'Show Memory, Skills and MCP Servers', () =>
      vscode.commands.executeCommand(`workbench.view.extension.${LIBRARY_CONTAINER_ID}`),
    ),
    cmd('keel.foldContext', 'Fold Context', () => foldContext(d)),
    cmd('keel.approveEdit', 'Approve Edit', (uri?: unknown) => d.diffs.decide(true, uri instanceof vscode.Uri ? uri : undefined)),
    cmd('keel.rejectEdit', 'Reject Edit', (uri?: unknown) => d.diffs.decide(false, uri instanceof vscode.Uri ? uri : undefined)),
  ];
}

const FOLD_RESULT = {
  folded: undefined,
  queued: 'Keel will fold the context before the next model turn.',
  nothing: 'Keel: nothing to fold yet; the context holds only the latest step.',
} as const;

/** Fold now: the shown task's finished steps into an episode note (the transcript shows it). */
async function foldContext(d: CommandDeps): Promise<void> {
  if (!d.session.current) {
    void vscode.window.showInformationMessage('Keel: no task to fold. Start one in the Keel view.');
    return;
  }
  const outcome = await d.session.fold();
  const message = outcome ? FOLD_RESULT[outcome] : undefined;
  if (message) void vscode.window.showInformationMessage(message);
}

/** `npm test` when package.json has a test script; otherwise the model finds out. */
async function testCommandOf(root: string | undefined): Promise<string | undefined> {
  if (!root) return undefined;
  try {
    const pkg = JSON.parse(await fs.readFile(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    return typeof pkg.scripts?.test === 'string' ? 'npm test' : undefined;
  } catch {
    return undefined;
  }
}

async function showHistory(d: CommandDeps): Promise<void> {
  await d.session.refreshHistory();
  const tasks = d.session.taskList().tasks;
  if (tasks.length === 0) {
    void vscode.window.showInformationMessage('Keel: no tasks yet. Start one in the Keel view.');
    return;
  }
  const remove: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete task' };
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
  const items = () =>
    historyRows(d.session.taskList(), Date.now()).map((row) =>
      row.kind === 'day'
        ? { id: '', label: row.label, kind: vscode.QuickPickItemKind.Separator }
        : {
            id: row.id,
            label: row.title,
            detail: row.detail,
            ...(row.current ? { description: '(shown)' } : {}),
            buttons: [remove],
          },
    );
  pick.title = 'Keel: Task History';
  pick.placeholder = 'Search tasks by title, day or status';
  pick.matchOnDetail = true;
  pick.items = items();
  pick.onDidTriggerItemButton(async (e) => {
    const ok = await vscode.window.showWarningMessage(`Delete the task "${e.item.label}" and its log?`, { modal: true }, 'Delete');
    if (ok !== 'Delete') return;
    await d.session.deleteTask(e.item.id);
    pick.items = items();
  });
  pick.onDidAccept(async () => {
    const chosen = pick.selectedItems[0];
    pick.hide();
    if (!chosen?.id) return;
    await d.view.reveal();
    await d.session.openTask(chosen.id);
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
