// Keel's approval keys against every default keybinding of the VS Code they run in (its Default
// Keyboard Shortcuts, as the editor itself lists them for this platform): a key that VS Code
// already binds would do two things, or the wrong one (Ctrl+Alt+N opens a new file in the
// browser build).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

interface Binding {
  key: string;
  command: string;
  when?: string;
}

/** The Default Keyboard Shortcuts (JSON) the editor shows, parsed (it has comments). */
async function defaultBindings(): Promise<Binding[]> {
  await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
  const editor = vscode.window.activeTextEditor;
  assert.ok(editor, 'the default keybindings opened in an editor');
  const text = editor.document.getText();
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const json = text.replace(/^\s*\/\/.*$/gm, '');
  return JSON.parse(json) as Binding[];
}

/** `ctrl+alt+y` and `alt+ctrl+y` are one key: compare the parts in a fixed order. */
const normal = (key: string): string =>
  key
    .split(' ')
    .map((chord) => chord.split('+').sort().join('+'))
    .join(' ');

describe('Keel approval keys in this VS Code', () => {
  it('collide with no default keybinding (and the first chord of none)', async function () {
    this.timeout(30_000);
    const keel = vscode.extensions.getExtension('keel-dev.keel')!;
    const ours = (keel.packageJSON.contributes.keybindings as Binding[]).filter((b) => /^keel\.(approve|reject)Pending/.test(b.command));
    assert.equal(ours.length, 3);
    const defaults = (await defaultBindings()).filter((b) => !b.command.startsWith('keel.') && !b.command.startsWith('-'));
    assert.ok(defaults.length > 500, `read ${defaults.length} default bindings`);
    const clashes = ours.flatMap((mine) => {
      const key = normal(mine.key);
      return defaults
        .filter((d) => normal(d.key) === key || normal(d.key).startsWith(`${key} `) || key.startsWith(`${normal(d.key)} `))
        .map((d) => `${mine.key} (${mine.command}) is also ${d.key} → ${d.command}${d.when ? ` when ${d.when}` : ''}`);
    });
    assert.deepEqual(clashes, []);
  });
});
