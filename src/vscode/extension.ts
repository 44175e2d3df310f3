// The composition root of the extension: settings, keys, log channel, tools, policy, the
// Workspace port on VS Code, the task store, the chat view, diff approvals and commands.
// `activate` returns a small API that the integration tests drive.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelProvider, RuntimeEvent } from '../kernel/index.js';
import { readLocation } from '../host/session/read-location.js';
import { JsonlLogStore, loadLog } from '../node/jsonl-store.js';
import { ChatViewProvider, CHAT_VIEW_ID } from './views/chat-view.js';
import { registerCommands } from './commands.js';
import { DiffApprovals } from './edits/diff-approvals.js';
import { processAlive, TaskLocks } from '../host/tasks/task-lock.js';
import { applyToFile } from './edits/apply-to-file.js';
import { ApplyCards } from '../host/edits/apply-cards.js';
import { Attention } from '../host/session/attention.js';
import { readNotificationSettings } from '../host/settings/settings.js';
import { EditPreviews } from '../host/edits/edit-plans.js';
import { WorkspaceGrantStore } from './grant-store.js';
import { createHostWorkspace } from './workspace/host-workspace.js';
import { KeelTerminal } from './workspace/keel-terminal.js';
import { dispatchWebviewMessage, type WebviewMessageHandlers } from '../host/presenter/index.js';
import { PROPOSED_SCHEME, ProposedContentProvider } from './edits/proposed-content.js';
import { RuntimeFactory } from '../host/runtime/runtime-factory.js';
import { startMcp } from './mcp/mcp-view.js';
import { startA2a } from './mcp/a2a-agents.js';
import { SecretKeys } from './keys/secret-keys.js';
import { Session } from '../host/session/session.js';
import { registerApprovalKeys } from './edits/approval-keys.js';
import { readSettings, type KeelSettings } from '../host/settings/settings.js';
import { TaskStore, type TaskLogFiles } from '../host/tasks/task-store.js';
import { adoptOldCheckpoints, adoptOldTasks, checkpointHome, taskHome } from '../host/tasks/task-home.js';
import { showViewOnFirstRun } from './views/first-run.js';
import { webviewHandlers } from './views/webview-handlers.js';
import { reportingFailures } from '../host/session/handler-failures.js';
import type { KeelApi } from './test-api.js';
import { redactSecrets } from '../kernel/redact.js';
import { KeyHostApprovals, keyQuestion } from '../host/keys/key-destination.js';
import { redactingLog } from './keel-log.js';
import { WorkspaceSettingsGuard } from './settings-guard.js';
import { openExtensionMemory, registerMemoryUnavailable, registerMemoryView } from './memory/memory-view.js';
import { AttachmentPicker } from './views/attachment-picker.js';
import { headerHints } from './views/header-pickers.js';
import { readCheckpointCaps } from '../host/settings/checkpoint-settings.js';
import { CheckpointUi } from './checkpoints/checkpoint-ui.js';
import { confirm } from './checkpoints/checkpoint-actions.js';
import { askForkFiles } from './views/fork-question.js';
import { TaskCheckpoints } from '../host/tasks/task-checkpoints.js';
import { composePolicy, describeSkillProblem, secretDetector, sweepStaleTemps } from '../compose/index.js';
import { userSkillFolder, userSkillsDir } from '../node/skill-folder.js';
import { newSkill, SKILLS_VIEW_ID, SkillsView } from './views/skills-view.js';

export type { KeelApi } from './test-api.js';

/** Task logs on disk; damaged lines are reported in Keel's log, the rest loads. */
function taskLogFiles(warn: (message: string) => void): TaskLogFiles {
  return {
    load: async (file) => {
      try {
        const loaded = loadLog(file);
        for (const p of [...(loaded.torn ? [loaded.torn] : []), ...loaded.invalid])
          warn(`${file}:${p.line} was left out of the task (${p.reason})`);
        return loaded.events;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    },
    open: async (file) => JsonlLogStore.open(file),
  };
}

const SEND_KEY = 'Send Key';

/** Said once a window: there is no OS sandbox here (unless the user turned it off), so commands ask. */
function sandboxNotice(settings: () => KeelSettings, log: { warn(m: string): void }): (reason: string) => void {
  let said = false;
  return (reason) => {
    const message = `Keel has no sandbox for commands: ${reason}. Every command asks before it runs (keel.sandbox).`;
    log.warn(message);
    if (said || settings().sandbox === 'off') return;
    said = true;
    void vscode.window.showWarningMessage(message);
  };
}

let stopStore: (() => Promise<void>) | undefined;

/** Global state: the hosts the user agreed to send an API key to (`<provider> <origin>`). */
const KEY_HOSTS_STATE = 'keel.keyHosts';
/** A task's lock is taken over after this long without a heartbeat (its window hung or died). */
const LOCK_STALE_MS = 30_000;
const LOCK_HEARTBEAT_MS = 10_000;

export async function activate(context: vscode.ExtensionContext): Promise<KeelApi> {
  const channel = vscode.window.createOutputChannel('Keel', { log: true });
  const keys = new SecretKeys(context.secrets);
  const redact = (text: string) => redactSecrets(text, keys.known(), secretDetector());
  const log = redactingLog(channel, () => keys.known());
  // inspect(), not get(): the user-only settings are taken from the user's level whatever the editor lets through.
  const settings = (): KeelSettings => {
    const config = vscode.workspace.getConfiguration('keel');
    return readSettings((k) => ({ ...config.inspect(k), value: config.get(k) }));
  };
  const guard = new WorkspaceSettingsGuard({
    warn: (message) =>
      void vscode.window.showWarningMessage(message, 'Open User Settings').then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'keel.');
      }),
    log: (message) => log.warn(message),
  });
  const keyHosts = new KeyHostApprovals(
    { get: () => context.globalState.get<string[]>(KEY_HOSTS_STATE) ?? [], set: (v) => context.globalState.update(KEY_HOSTS_STATE, v) },
    async (destination) => {
      const { message, detail } = keyQuestion(destination);
      const ask = () => vscode.window.showWarningMessage(message, { modal: true, detail }, SEND_KEY);
      return ((await (session ? session.asking(message, ask) : ask())) ?? undefined) === SEND_KEY;
    },
  );
  const folder = vscode.workspace.workspaceFolders?.[0];
  const terminal = new KeelTerminal();
  const content = new ProposedContentProvider();
  let providerOverride: ((s: KeelSettings) => ModelProvider | undefined) | undefined;

  const host = folder
    ? await createHostWorkspace(
        folder.uri,
        terminal,
        (m) => log.info(m),
        () => keys.held(),
        sandboxNotice(settings, log),
        () => settings().commandsPassEnv,
      ).catch((error: unknown) => {
        log.error(`Keel cannot use the folder ${folder.uri.fsPath}: ${String(error)}`);
        return undefined;
      })
    : undefined;
  const workspace = host?.workspace;
  if (host) context.subscriptions.push(...host.disposables);
  const memory = openExtensionMemory(context, workspace?.root, log);

  // The user's skills: the folder `keel run` reads, so both hosts load the same skills.
  const userSkills = userSkillFolder(userSkillsDir());
  const skillsView = new SkillsView({ workspace, folder, user: userSkills, trusted: () => vscode.workspace.isTrusted });
  const mcp = startMcp({
    context,
    workspaceRoot: workspace?.root,
    secrets: () => keys.known(),
    passEnv: () => settings().commandsPassEnv,
    riskOverrides: () => settings().mcpRisk,
    log,
    ...(host?.sandbox ? { sandbox: { support: host.sandbox, mode: () => settings().sandbox } } : {}),
  });
  context.subscriptions.push(...mcp.disposables);
  const a2a = startA2a({ context, workspaceRoot: workspace?.root, log });
  context.subscriptions.push(...a2a.disposables);
  let session: Session | undefined;
  let checkpointUi: CheckpointUi | undefined;
  const checkpointStorage = await checkpointsFolder(context, folder?.uri, (m) => log.info(m));
  // Temporary files a crashed write left (this window's or another's) are removed, never listed.
  if (workspace)
    void sweepStaleTemps(workspace.root, [checkpointStorage]).then((removed) => {
      if (removed.length > 0) log.info(`removed ${removed.length} temporary file(s) a crashed write left: ${removed.join(', ')}`);
    });
  const checkpoints = new TaskCheckpoints({
    storageDir: checkpointStorage,
    root: workspace?.root,
    caps: () => readCheckpointCaps((k) => vscode.workspace.getConfiguration('keel').get(k)),
    warn: (m) => log.warn(m),
  });
  // An edit's diff and the call that writes it share one plan (edit-plans.ts).
  const previews = new EditPreviews();
  const factory = new RuntimeFactory({
    mcp: mcp.hub,
    a2a: () => a2a.agents(),
    skills: {
      user: userSkills,
      report: (problems) => {
        for (const p of problems) log.warn(`skipped a skill: ${describeSkillProblem(p)}`);
      },
    },
    settings,
    workspace,
    grants: new WorkspaceGrantStore(context.workspaceState),
    trusted: () => vscode.workspace.isTrusted,
    lookupKey: (s) => keys.lookup(s),
    allowKeyDestination: (destination) => keyHosts.allowed(destination),
    secrets: () => keys.known(),
    onRequest: (taskId, request) => session?.requestSent(taskId, request),
    providerOverride: (s) => providerOverride?.(s),
    checkpoints: (taskId) => checkpoints.forTask(taskId),
    memory: memory?.store,
    previews,
  });
  const taskDir = await tasksFolder(context, folder?.uri, (m) => log.info(m));
  const tasks = new TaskStore({
    dir: taskDir,
    logs: taskLogFiles((m) => log.warn(m)),
    createRuntime: (init) => factory.create(init),
    onStatus: (task, status) => {
      if (status === 'failed') log.warn(`task ${task.id} failed: ${task.getState().lastError?.message ?? 'unknown error'}`);
      session?.statusChanged(task, status);
    },
    onCrash: (task, error) => log.error(`task ${task.id} crashed`, error instanceof Error ? (error.stack ?? error.message) : String(error)),
  });
  await tasks.init().catch((error: unknown) => log.error(`Keel could not read its task history: ${String(error)}`));
  stopStore = () => tasks.dispose();

  // One window drives a task at a time: the lock beside its log, refreshed while this window runs.
  const locks = new TaskLocks({
    dir: taskDir,
    self: { pid: process.pid, window: vscode.env.sessionId },
    staleMs: LOCK_STALE_MS,
    now: () => Date.now(),
    isAlive: processAlive,
  });
  const heartbeat = setInterval(() => void locks.beat(), LOCK_HEARTBEAT_MS);
  const diffs = new DiffApprovals({
    content,
    workspace: () => workspace,
    previews,
    log: (m) => log.warn(m),
    warn: (m) => void vscode.window.showWarningMessage(redact(m)),
    decide: async (task, intentId, decision) => session?.decideApproval(task, intentId, decision) ?? false,
  });
  let shownHandlers: WebviewMessageHandlers | undefined;
  const view = new ChatViewProvider(context.extensionUri, {
    onMessage: (raw) => {
      shownHandlers ??= reportingFailures(handlers, (m) => void vscode.window.showErrorMessage(`Keel: ${redact(m)}`));
      return dispatchWebviewMessage(raw, shownHandlers, (m) => log.warn(m));
    },
  });
  const attention = new Attention({
    badge: (count) => view.setBadge(count),
    notify: async (message) => (await vscode.window.showInformationMessage(message, 'Show')) === 'Show',
    show: () => void view.focusComposer(),
    away: () => !vscode.window.state.focused || !view.visible,
    settings: () => readNotificationSettings((k) => vscode.workspace.getConfiguration('keel').get(k)),
  });
  session = new Session({
    tasks,
    post: (m) => view.post(m),
    keyMissing: async () => !providerOverride && (await keys.lookup(settings())).kind === 'missing',
    trusted: () => vscode.workspace.isTrusted,
    model: (task) => factory.model(task.id),
    focusIntent: async (task, intentId) => {
      if (await diffs.focus(task, intentId)) return true;
      if (await openRead(task.getEvents(), intentId)) return true;
      const tool = task.getState().intents[intentId]?.tool;
      // Commands and test runs are watched in the Keel terminal.
      if (tool && task.runtime.tool?.(tool)?.kind === 'command') terminal.show();
      return false;
    },
    watch: (task) => diffs.watch(task),
    setContext: (key, value) => void vscode.commands.executeCommand('setContext', key, value),
    headerHints: () => headerHints(settings()),
    changesShown: (task, runEnded) => checkpointUi?.changesShown(task, runEnded),
    log,
    locks,
    refuse: (message) => void vscode.window.showWarningMessage(`Keel: ${message}`),
    askForkFiles,
    confirmOverwrite: confirm,
    attention,
  });
  const shown = session;
  // An Apply's card waits in the transcript of the task shown, like an agent's edit.
  const cards = new ApplyCards(() => shown.presenter);
  const picker = new AttachmentPicker({
    workspace,
    terminalOutput: () => terminal.lastOutput(),
    post: (m) => view.post(m),
    reveal: () => view.reveal(),
    focusComposer: () => view.focusComposer(),
    log,
  });
  checkpointUi = new CheckpointUi({ session, tasks, checkpoints, root: workspace?.root, settings, log });
  const handlers = {
    ...webviewHandlers(session, log, {
      picker,
      settings,
      applyCode: (text) =>
        applyToFile(text, {
          workspace: () => workspace,
          policy: () => composePolicy(settings(), true),
          diffs,
          cards,
          log: (m) => log.warn(m),
        }),
      cards,
    }),
    ...checkpointUi.handlers,
  };
  const s = session;

  context.subscriptions.push(
    channel,
    terminal,
    content,
    diffs,
    view,
    { dispose: () => s.dispose() },
    {
      dispose: () => {
        clearInterval(heartbeat);
        void locks.releaseAll();
      },
    },
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, content),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    guard,
    ...checkpointUi.disposables,
    ...(memory ? registerMemoryView({ ...memory, workspace, log }) : registerMemoryUnavailable()),
    ...registerCommands({ session: s, view, diffs, keys, settings, log, redact, workspaceRoot: workspace?.root }),
    ...registerApprovalKeys(s, diffs),
    vscode.commands.registerCommand('keel.addSelectionToChat', () => picker.addSelection()),
    keys.onDidChange(() => void s.refreshHints()),
    skillsView,
    vscode.window.registerTreeDataProvider(SKILLS_VIEW_ID, skillsView),
    vscode.commands.registerCommand('keel.newSkill', (name?: unknown) => newSkill(workspace, name)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      skillsView.refresh();
      log.info('workspace trusted: write and execute tools are offered from the next run on');
      void s.trustChanged();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('keel.notifications')) attention.refresh();
      if (e.affectsConfiguration('keel')) void s.settingsChanged();
    }),
  );
  void diffs.closeOrphans();
  void showViewOnFirstRun(context.globalState).catch((e: unknown) => log.warn(`could not show the Keel view: ${String(e)}`));
  void guard.check();
  log.info(
    `Keel activated (${folder ? `folder ${workspace?.root ?? folder.uri.fsPath}` : 'no folder'}; trusted: ${vscode.workspace.isTrusted})`,
  );

  return {
    tasks,
    session: s,
    diffs,
    content,
    terminal,
    workspace,
    rgPath: host?.rgPath,
    getRuntime: () => s.current?.runtime,
    setProviderOverride: (fn) => {
      providerOverride = fn;
    },
    settings,
    workspaceSettings: guard,
    skills: skillsView,
  };
}

/** A finished read's card: the file, the lines read selected (inside the workspace only). */
async function openRead(events: readonly RuntimeEvent[], intentId: string): Promise<boolean> {
  const read = readLocation(events, intentId);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!read || !folder || path.isAbsolute(read.path) || read.path.split(/[\\/]/).includes('..')) return false;
  const from = Math.max(0, read.from - 1);
  const to = Math.max(from, read.to - 1);
  await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, read.path), {
    preview: true,
    selection: new vscode.Range(from, 0, to, 0),
  });
  return true;
}

/** The shared, folder-keyed task home (older per-window tasks adopted); per-window without a folder. */
async function tasksFolder(context: vscode.ExtensionContext, folder: vscode.Uri | undefined, info: (m: string) => void): Promise<string> {
  const perWindow = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'tasks');
  if (!folder) return perWindow;
  const home = taskHome(context.globalStorageUri.fsPath, folder.toString());
  const adopted = await adoptOldTasks(perWindow, home).catch(() => 0);
  if (adopted > 0) info(`moved ${adopted} task(s) into the shared history of this folder`);
  return home;
}

/** The folder-keyed checkpoint home, beside the shared tasks; per-window without a folder. */
async function checkpointsFolder(
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

export async function deactivate(): Promise<void> {
  await stopStore?.();
}
