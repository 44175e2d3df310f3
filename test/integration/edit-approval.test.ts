// An edit proposed by the model is shown in VS Code's diff editor (keel-proposed scheme), does
// not touch the file before approval, lands through a WorkspaceEdit when approved from the diff
// editor's title bar command, and can be undone with the editor's own Undo.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ScriptedProvider, textTurn, toolTurn } from '../../src/providers/scripted.js';
import { keelApi, until, workspaceRoot } from './keel-api.js';

const BUG = 'return Math.floor((cents * percent) / 100);';
const FIX = 'return Math.round((cents * percent) / 100);';

function proposedDiffTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => t.input)
    .filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff && i.modified.scheme === 'keel-proposed');
}

describe('Keel edits in the diff editor', function () {
  this.timeout(120_000);

  afterEach(async () => {
    (await keelApi()).setProviderOverride(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('previews on keel-proposed, writes nothing before approval, applies through WorkspaceEdit, and undoes', async () => {
    const api = await keelApi();
    const fileUri = vscode.Uri.joinPath(workspaceRoot(), 'src', 'price.js');
    const before = readFileSync(fileUri.fsPath, 'utf8');
    assert.ok(before.includes(BUG), 'fixture changed: the bug line is missing');
    api.setProviderOverride(
      () =>
        new ScriptedProvider([
          toolTurn('read_file', { path: 'src/price.js' }),
          toolTurn('edit_file', { path: 'src/price.js', edits: [{ search: BUG, replace: FIX }] }),
          textTurn('Rounded the discount to the nearest cent.'),
        ]),
    );
    await api.session.newTask();
    const task = await api.session.send('Fix the rounding in the discount');
    await until('the edit to wait for approval', () => task.getState().status === 'waiting_for_approval');

    const diff = await until('a diff tab on keel-proposed', () => proposedDiffTabs()[0]);
    assert.equal(diff.original.toString(), fileUri.toString());
    const proposed = await vscode.workspace.openTextDocument(diff.modified);
    assert.ok(proposed.getText().includes(FIX), 'the proposed side shows the fix');
    assert.equal(readFileSync(fileUri.fsPath, 'utf8'), before, 'the file changed before approval');

    await vscode.commands.executeCommand('keel.approveEdit', diff.modified);
    await until('the run to finish', () => task.getState().status === 'completed');
    const after = readFileSync(fileUri.fsPath, 'utf8');
    assert.equal(after, before.replace(BUG, FIX), 'the approved edit is not on disk');
    await until('the diff to close', () => proposedDiffTabs().length === 0);
    const shown = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.input);
    assert.ok(
      shown.some((i) => i instanceof vscode.TabInputText && i.uri.toString() === fileUri.toString()),
      'the edited file takes the place of the diff',
    );

    const doc = await vscode.workspace.openTextDocument(fileUri);
    assert.equal(doc.getText(), after, 'the document shows the edit');
    // The bytes went to disk atomically; the editor notices it matches the disk shortly after.
    await until('the document to show as saved', () => !doc.isDirty);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await until('undo to restore the text', () => doc.getText() === before);
    // Leave the fixture as it was on disk (VS Code's save may lag behind its promise here).
    await doc.save();
    await until('the undone text to reach the disk', () => readFileSync(fileUri.fsPath, 'utf8') === before);
  });

  it('rejecting from the diff editor leaves the file alone and tells the model', async () => {
    const api = await keelApi();
    const fileUri = vscode.Uri.joinPath(workspaceRoot(), 'src', 'price.js');
    const before = readFileSync(fileUri.fsPath, 'utf8');
    api.setProviderOverride(
      () =>
        new ScriptedProvider([
          toolTurn('read_file', { path: 'src/price.js' }),
          toolTurn('edit_file', { path: 'src/price.js', edits: [{ search: BUG, replace: FIX }] }),
          textTurn('Understood, leaving it.'),
        ]),
    );
    await api.session.newTask();
    const task = await api.session.send('Try an edit I will reject');
    await until('the edit to wait for approval', () => task.getState().status === 'waiting_for_approval');
    const diff = await until('a diff tab on keel-proposed', () => proposedDiffTabs()[0]);
    await vscode.commands.executeCommand('keel.rejectEdit', diff.modified);
    await until('the run to finish', () => task.getState().status === 'completed');
    assert.equal(readFileSync(fileUri.fsPath, 'utf8'), before, 'a rejected edit reached the disk');
    const observation = task.getState().messages.find((m) => m.type === 'observation');
    assert.ok(observation && observation.type === 'observation');
    const rejected = task.getEvents().find((e) => e.type === 'intent_rejected');
    assert.ok(rejected, 'no intent_rejected event');
    await until('the diff to close', () => proposedDiffTabs().length === 0);
  });
});
