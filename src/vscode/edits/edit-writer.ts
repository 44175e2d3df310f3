// Writes a file's new content so that (1) the change goes through a WorkspaceEdit: it lands on
// the document's undo stack and open editors show it at once, and (2) the bytes on disk change
// atomically (temp file + rename by the Node port): VS Code's own save truncates and rewrites,
// which a crash or a watcher can catch half-done. The document, now equal to the disk, is then
// marked clean. Content a text model cannot hold exactly (binary, BOM, mixed line endings) and
// new files are written atomically only; VS Code reloads open editors from disk, undoably.
import * as vscode from 'vscode';

const decoder = new TextDecoder('utf-8', { fatal: true });
const BOM = [0xef, 0xbb, 0xbf];
/** How long a document may take to notice that the disk now matches it (file watcher). */
const CLEAN_WAIT_MS = 3000;

export interface WriteOutcome {
  via: 'workspace-edit' | 'disk';
  /**
   * Resolves true once the document shows as saved (VS Code's file watcher sees the disk now
   * matches it, about a second later); false if it still looked unsaved after a while.
   */
  clean: Promise<boolean>;
}

/** Text a text model can hold byte for byte, with the line ending to set; undefined if none. */
function asModelText(data: Uint8Array): { text: string; eol: vscode.EndOfLine | undefined } | undefined {
  if (data.length >= 3 && BOM.every((b, i) => data[i] === b)) return undefined;
  let text: string;
  try {
    text = decoder.decode(data);
  } catch {
    return undefined;
  }
  if (text.includes('\0')) return undefined;
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  const lone = (text.match(/\r(?!\n)/g) ?? []).length;
  if (lone > 0 || (crlf > 0 && lf > 0)) return undefined;
  const eol = crlf > 0 ? vscode.EndOfLine.CRLF : lf > 0 ? vscode.EndOfLine.LF : undefined;
  return { text, eol };
}

/**
 * `writeAtomically` puts the bytes on disk (temp file + rename). `exists`: the file is there
 * now (a new file has no document to edit).
 */
export async function writeThroughEditor(
  uri: vscode.Uri,
  data: Uint8Array,
  exists: boolean,
  writeAtomically: () => Promise<void>,
): Promise<WriteOutcome> {
  const model = exists ? asModelText(data) : undefined;
  if (!model) {
    await writeAtomically();
    return { via: 'disk', clean: Promise.resolve(true) };
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const previous = { text: doc.getText(), eol: doc.eol };
  const edit = new vscode.WorkspaceEdit();
  const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
  const edits = [vscode.TextEdit.replace(whole, model.text)];
  if (model.eol !== undefined && model.eol !== doc.eol) edits.push(vscode.TextEdit.setEndOfLine(model.eol));
  edit.set(uri, edits);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit to ${uri.fsPath}.`);
  try {
    await writeAtomically();
  } catch (error) {
    // The disk kept the old bytes: the editor must not show the new text as if it had landed.
    const back = new vscode.WorkspaceEdit();
    const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    back.set(uri, [vscode.TextEdit.replace(all, previous.text), vscode.TextEdit.setEndOfLine(previous.eol)]);
    await vscode.workspace.applyEdit(back);
    throw error;
  }
  // Not awaited: the bytes are on disk and the editor shows them; only the dirty dot lags.
  return { via: 'workspace-edit', clean: markClean(doc) };
}

/** The document equals the disk: let VS Code see that, without writing the file again. */
async function markClean(doc: vscode.TextDocument): Promise<boolean> {
  if (!doc.isDirty) return true;
  // Revert reloads from disk (identical content: the undo stack is kept). The command acts on
  // the active editor, so it is used only when that editor shows this very document.
  if (vscode.window.activeTextEditor?.document === doc) {
    await vscode.commands.executeCommand('workbench.action.files.revert', doc.uri).then(undefined, () => undefined);
  }
  if (!doc.isDirty) return true;
  // Otherwise VS Code's file watcher notices the disk now matches the document.
  return new Promise<boolean>((resolve) => {
    const finish = (clean: boolean) => {
      clearTimeout(timer);
      clearInterval(poll);
      sub.dispose();
      resolve(clean);
    };
    const timer = setTimeout(() => finish(!doc.isDirty), CLEAN_WAIT_MS);
    const poll = setInterval(() => {
      if (!doc.isDirty) finish(true);
    }, 50);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && !doc.isDirty) finish(true);
    });
  });
}
