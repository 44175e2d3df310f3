// Keel installs and activates in a real extension host, and contributes its commands.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('Keel in the extension host', () => {
  it('is installed and activates', async () => {
    const keel = vscode.extensions.getExtension('keel-dev.keel');
    assert.ok(keel, 'keel-dev.keel is not installed');
    await keel.activate();
    assert.equal(keel.isActive, true);
  });

  it('registers its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['keel.newTask', 'keel.fixFailingTests', 'keel.stop', 'keel.setApiKey', 'keel.showLog', 'keel.foldContext']) {
      assert.ok(commands.includes(id), `command ${id} is missing`);
    }
  });

  it('opens the examples/failing-tests copy as the workspace', () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    assert.match(folder.uri.fsPath, /failing-tests$/);
  });
});
