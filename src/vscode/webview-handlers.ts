// What each message from the webview does. Validation happens before (dispatchWebviewMessage):
// a malformed message, a task id that is not one, never reaches these handlers. Each handler
// still checks that the id names something this window knows before acting on it.
import * as vscode from 'vscode';
import type { KeelLog } from './keel-log.js';
import { openLinkAfterConfirm } from './links.js';
import { rulesFileToOpen } from './rules-files.js';
import type { WebviewMessageHandlers } from './presenter/index.js';
import type { Session } from './session.js';

export function webviewHandlers(session: Session, log: KeelLog): WebviewMessageHandlers {
  return {
    'webview/ready': () => session.ready(),
    'task/send': async (m) => {
      await session.send(m.text);
    },
    'task/stop': () => session.stop(),
    'task/new': async () => {
      await session.newTask();
    },
    'task/open': (m) => session.openTask(m.id),
    'task/delete': async (m) => {
      if (!session.knowsTask(m.id)) return log.warn(`ignored deleting an unknown task ${m.id}`);
      const ok = await vscode.window.showWarningMessage('Delete this task and its log?', { modal: true }, 'Delete');
      if (ok === 'Delete') await session.deleteTask(m.id);
    },
    'task/resume': () => session.resume(),
    'intent/approve': (m) => session.approve(m.intentId, m.scope),
    'intent/reject': (m) => session.reject(m.intentId, m.reason),
    'intent/focus': (m) => session.focus(m.intentId),
    'apiKey/set': async () => {
      await vscode.commands.executeCommand('keel.setApiKey');
    },
    'log/show': () => log.show(),
    'context/fold': async () => {
      await vscode.commands.executeCommand('keel.foldContext');
    },
    'link/open': async (m) => {
      await openLinkAfterConfirm(m.href, {
        confirm: async (shown) =>
          (await vscode.window.showWarningMessage('Open this link from the transcript?', { modal: true, detail: shown }, 'Open Link')) ===
          'Open Link',
        open: (url) => vscode.env.openExternal(vscode.Uri.parse(url, true)),
        log: (message) => log.warn(message),
      });
    },
    'clipboard/copy': async (m) => {
      await vscode.env.clipboard.writeText(m.text);
    },
    'rules/open': async (m) => {
      const file = rulesFileToOpen(session.current?.getEvents() ?? [], m.path);
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      if (!file || !folder) return log.warn(`ignored opening ${JSON.stringify(m.path)}: not a rules file of the task shown`);
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, ...file.split('/')), { preview: true });
    },
  };
}
