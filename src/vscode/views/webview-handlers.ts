// What each message from the webview does. Validation happens before (dispatchWebviewMessage):
// a malformed message, a task id that is not one, never reaches these handlers. Each handler
// still checks that the id names something this window knows before acting on it.
import * as vscode from 'vscode';
import type { KeelLog } from '../keel-log.js';
import { openLinkAfterConfirm } from '../../host/session/links.js';
import { rulesFileToOpen } from '../../host/settings/rules-files.js';
import type { WebviewMessageHandlers } from '../../host/presenter/index.js';
import type { Session } from '../../host/session/session.js';
import type { AttachmentPicker } from './attachment-picker.js';
import type { ApplyCards } from '../../host/edits/apply-cards.js';
import { insertionText } from '../../host/edits/snippet-place.js';
import { pickAutoApprove, pickModel } from './header-pickers.js';
import type { KeelSettings } from '../../host/settings/settings.js';
import { sniffImageType, type ImageInput } from '../../protocol/index.js';

/** The composer's context and the header's pickers (attachment-picker.ts, header-pickers.ts). */
export interface ContextHandlers {
  picker: AttachmentPicker;
  settings(): KeelSettings;
  /** Apply to file… on a code block (apply-to-file.ts). */
  applyCode(text: string): Promise<void>;
  /** The Apply cards: their Approve / Reject are theirs, not the task's. */
  cards: ApplyCards;
  /** Shows the view with the keyboard in its composer. */
  focusComposer(): Promise<void>;
}

export function webviewHandlers(session: Session, log: KeelLog, context: ContextHandlers): WebviewMessageHandlers {
  return {
    'webview/ready': () => session.ready(),
    'task/send': async (m) => {
      const attachments = m.attachmentIds ? context.picker.take(m.attachmentIds) : [];
      await session.send(m.text, {
        attachments,
        images: checkedImages(m.images ?? [], log),
        ...(m.mode ? { mode: m.mode } : {}),
        ...(m.agent !== undefined ? { agent: m.agent } : {}),
      });
    },
    'plan/approve': async () => {
      await session.approvePlan();
    },
    'attach/pick': () => context.picker.pick(),
    'mention/list': () => context.picker.listMentions(),
    'mention/pick': (m) => context.picker.choose(m.key),
    'model/pick': () => pickModel(context.settings()),
    'autoApprove/pick': () => pickAutoApprove(context.settings()),
    'task/stop': () => session.stop(),
    'process/stop': (m) => session.stopProcess(m.name),
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
    'task/fork': async (m) => {
      await session.fork(m.messageId, m.text);
    },
    'task/retry': async (m) => {
      await session.retry(m.noticeId);
    },
    'turn/retry': () => {
      if (!session.current?.runtime.retryStalledTurn()) log.warn('ignored a retry of the turn: no model stream is being read');
    },
    'intent/approve': (m) => (context.cards.decide(m.intentId, true) ? undefined : session.approve(m.intentId, m.scope)),
    'intent/reject': (m) => (context.cards.decide(m.intentId, false) ? undefined : session.reject(m.intentId, m.reason)),
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
      // The question took the keyboard from the view: the words typed next belong in the composer.
      await context.focusComposer();
    },
    'clipboard/copy': async (m) => {
      await vscode.env.clipboard.writeText(m.text);
    },
    'editor/insert': async (m) => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage('Keel: open a file and place the cursor where the code should go.');
        return;
      }
      // Replaces each selection (or inserts at each cursor); the user asked, and Undo reverts it. A
      // block of lines keeps its line breaks around the text already on the line.
      await editor.edit((edit) => {
        for (const selection of editor.selections) {
          const line = editor.document.lineAt(selection.start.line).text;
          const after = editor.document.lineAt(selection.end.line).text.slice(selection.end.character);
          edit.replace(selection, insertionText(m.text, line.slice(0, selection.start.character), after));
        }
      });
    },
    'editor/apply': (m) => context.applyCode(m.text),
    'file/open': (m) => openFilePath(m.path, m.line, log),
    'rules/open': async (m) => {
      const file = rulesFileToOpen(session.current?.getEvents() ?? [], m.path);
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      if (!file || !folder) return log.warn(`ignored opening ${JSON.stringify(m.path)}: not a rules file of the task shown`);
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, ...file.split('/')), { preview: true });
    },
  };
}

/**
 * A path from an answer (model text: untrusted): opened only as a file inside the workspace folder
 * — no absolute path, no `..` — that exists; anything else is a message, never an error.
 */
async function openFilePath(rel: string, line: number | undefined, log: KeelLog): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const parts = rel.replace(/^\.\//, '').split('/');
  if (!folder || rel.startsWith('/') || /^[A-Za-z]:/.test(rel) || parts.some((p) => p === '..' || p === '')) {
    log.warn(`ignored opening ${JSON.stringify(rel)}: not a path inside the workspace`);
    return;
  }
  const uri = vscode.Uri.joinPath(folder, ...parts);
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (stat?.type !== vscode.FileType.File) {
    void vscode.window.showInformationMessage(`Keel: ${rel} is not a file in this workspace.`);
    return;
  }
  const at = line && line > 0 ? new vscode.Position(line - 1, 0) : undefined;
  await vscode.window.showTextDocument(uri, { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
}

/** The webview checked the bytes; the host checks again (the page is not trusted to). */
function checkedImages(images: ImageInput[], log: KeelLog): ImageInput[] {
  return images.filter((img) => {
    const ok = sniffImageType(Buffer.from(img.data.slice(0, 24), 'base64')) === img.mediaType;
    if (!ok) log.warn(`left out an image whose bytes are not ${img.mediaType}`);
    return ok;
  });
}
