// What each message from the webview does. Validation happens before (dispatchWebviewMessage):
// a malformed message never reaches these handlers.
import * as vscode from 'vscode';
import type { WebviewMessageHandlers } from './presenter/index.js';
import type { Session } from './session.js';

export function webviewHandlers(session: Session, log: vscode.LogOutputChannel): WebviewMessageHandlers {
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
    'log/show': () => log.show(true),
    'context/fold': async () => {
      await vscode.commands.executeCommand('keel.foldContext');
    },
    'link/open': async (m) => {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(m.href, true);
      } catch {
        return;
      }
      // Only web links leave the editor; anything else (command:, file:, vscode:) is ignored.
      if (uri.scheme === 'https' || uri.scheme === 'http') await vscode.env.openExternal(uri);
      else log.warn(`ignored a link with scheme ${uri.scheme}`);
    },
    'clipboard/copy': async (m) => {
      await vscode.env.clipboard.writeText(m.text);
    },
  };
}
