// The fourth build step: the view, the diff approvals, the session between them and the
// webview's handlers. The session answers its links here, once it exists.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RuntimeEvent } from '../../kernel/index.js';
import { Session } from '../../host/session/session.js';
import { Attention } from '../../host/session/attention.js';
import { readLocation } from '../../host/session/read-location.js';
import { reportingFailures } from '../../host/session/handler-failures.js';
import { readNotificationSettings } from '../../host/settings/settings.js';
import { ApplyCards } from '../../host/edits/apply-cards.js';
import { dispatchWebviewMessage, type WebviewMessageHandlers } from '../../host/presenter/index.js';
import { composePolicy } from '../../compose/index.js';
import { ChatViewProvider } from '../views/chat-view.js';
import { DiffApprovals } from '../edits/diff-approvals.js';
import { applyToFile } from '../edits/apply-to-file.js';
import { AttachmentPicker } from '../views/attachment-picker.js';
import { headerHints } from '../views/header-pickers.js';
import { keyHints } from '../../host/keys/api-key.js';
import { webviewHandlers } from '../views/webview-handlers.js';
import { askForkFiles } from '../views/fork-question.js';
import { CheckpointUi } from '../checkpoints/checkpoint-ui.js';
import { type WorktreeView, worktreeView } from '../worktrees/worktree-view.js';
import { confirm } from '../checkpoints/checkpoint-actions.js';
import type { Base } from './base.js';
import type { FolderParts } from './folder.js';
import type { TaskParts } from './tasks.js';
import type { SessionLinks } from './session-links.js';

export interface SessionParts {
  session: Session;
  diffs: DiffApprovals;
  view: ChatViewProvider;
  attention: Attention;
  picker: AttachmentPicker;
  checkpointUi: CheckpointUi;
  /** The session answering its links; disposed with the window. */
  answering: vscode.Disposable[];
}

export function buildSession(
  context: vscode.ExtensionContext,
  base: Base,
  parts: FolderParts,
  core: TaskParts,
  links: SessionLinks,
): SessionParts {
  const { log, settings, terminal, redact } = base;
  const { workspace } = parts;
  const diffs = new DiffApprovals({
    content: base.content,
    workspace: () => workspace,
    previews: core.previews,
    log: (m) => log.warn(m),
    warn: (m) => void vscode.window.showWarningMessage(redact(m)),
    decide: (task, intentId, decision) => links.decide.call(task, intentId, decision),
  });
  const view = new ChatViewProvider(context.extensionUri, { onMessage: (raw) => links.message.call(raw) });
  const attention = new Attention({
    badge: (count) => view.setBadge(count),
    notify: async (message) => (await vscode.window.showInformationMessage(message, 'Show')) === 'Show',
    show: () => void view.focusComposer(),
    away: () => !vscode.window.state.focused || !view.visible,
    settings: () => readNotificationSettings((k) => vscode.workspace.getConfiguration('keel').get(k)),
  });
  const session = new Session({
    tasks: core.tasks,
    post: (m) => view.post(m),
    keyMissing: async () => !core.providers.active && keyHints(settings().baseUrl, (await base.keys.lookup(settings())).kind).noApiKey,
    keyNotNeeded: async () => !!core.providers.active || (await base.keys.lookup(settings())).kind === 'not_needed',
    trusted: () => vscode.workspace.isTrusted,
    model: (task) => core.factory.model(task.id),
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
    // The endpoint's problem (keel.baseUrl without its scheme) is named instead of a missing key.
    headerHints: () => ({ ...headerHints(settings()), endpoint: keyHints(settings().baseUrl, 'found').endpoint }),
    commands: () => core.factory.commands(),
    agents: () => core.factory.agents(),
    changesShown: (task, runEnded) => links.changesShown.call(task, runEnded),
    log,
    locks: core.locks,
    refuse: (message) => void vscode.window.showWarningMessage(`Keel: ${message}`),
    askForkFiles,
    confirmOverwrite: confirm,
    attention,
  });
  const picker = new AttachmentPicker({
    workspace,
    terminalOutput: () => terminal.lastOutput(),
    post: (m) => view.post(m),
    reveal: () => view.reveal(),
    focusComposer: () => view.focusComposer(),
    log,
  });
  const checkpointUi = new CheckpointUi({
    session,
    tasks: core.tasks,
    checkpoints: parts.checkpoints,
    root: workspace?.root,
    settings,
    log,
  });
  const worktrees = worktreeView(workspace?.root, (m) => view.post(m), log);
  const handlers = viewHandlers(base, parts, session, diffs, picker, checkpointUi, worktrees, () => view.focusComposer());
  const answering = answerLinks(base, links, session, handlers, checkpointUi);
  // The index began in the folder step; its line shows in the panel from here on.
  parts.host?.indexProgress.listen((indexing) => session.presenter.setHints({ indexing }));
  return { session, diffs, view, attention, picker, checkpointUi, answering };
}

function viewHandlers(
  base: Base,
  parts: FolderParts,
  session: Session,
  diffs: DiffApprovals,
  picker: AttachmentPicker,
  checkpointUi: CheckpointUi,
  worktrees: WorktreeView,
  focusComposer: () => Promise<void>,
): WebviewMessageHandlers {
  const { log, settings } = base;
  // An Apply's card waits in the transcript of the task shown, like an agent's edit.
  const cards = new ApplyCards(() => session.presenter);
  const handlers: WebviewMessageHandlers = {
    ...webviewHandlers(session, log, {
      picker,
      settings,
      applyCode: (text) =>
        applyToFile(text, {
          workspace: () => parts.workspace,
          policy: () => composePolicy(settings(), true),
          diffs,
          cards,
          log: (m) => log.warn(m),
        }),
      cards,
      focusComposer,
    }),
    ...checkpointUi.handlers,
  };
  // The worktree sessions panel is listed with each (re)load of the view, and after each action.
  const ready = handlers['webview/ready'];
  handlers['webview/ready'] = async (m) => {
    await ready?.(m);
    await worktrees.refresh();
  };
  handlers['worktree/act'] = (m) => worktrees.act(m.name, m.action);
  return reportingFailures(handlers, (m) => void vscode.window.showErrorMessage(`Keel: ${base.redact(m)}`));
}

function answerLinks(
  base: Base,
  links: SessionLinks,
  session: Session,
  handlers: WebviewMessageHandlers,
  checkpointUi: CheckpointUi,
): vscode.Disposable[] {
  return [
    links.status.answerWith((task, status) => session.statusChanged(task, status)),
    links.request.answerWith((taskId, request) => session.requestSent(taskId, request)),
    links.asking.answerWith((question, ask) => session.asking(question, ask)),
    links.decide.answerWith((task, intentId, decision) => session.decideApproval(task, intentId, decision)),
    links.message.answerWith((raw) => void dispatchWebviewMessage(raw, handlers, (m) => base.log.warn(m))),
    links.changesShown.answerWith((task, runEnded) => checkpointUi.changesShown(task, runEnded)),
  ];
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
