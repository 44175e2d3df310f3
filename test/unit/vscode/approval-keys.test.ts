// The approval keys are declared in package.json; the card's tooltip and the welcome list them
// (media/approval-keys.ts), so a binding changed in one place and not the other fails here, and
// each platform sees its own notation only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { APPROVAL_KEYS, approvalKeysTitle, keyLabel, onMac } from '../../../media/approval-keys.js';

interface Keybinding {
  command: string;
  key: string;
  mac?: string;
  when?: string;
}

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  contributes: {
    keybindings: Keybinding[];
    commands: { command: string; title: string }[];
    menus: { 'editor/title': { command: string; when?: string }[] };
  };
};

describe('approval keybindings', () => {
  const bindings = pkg.contributes.keybindings.filter((b) => /^keel\.(approve|reject)Pending/.test(b.command));

  it('binds Approve, Reject and Approve always while the Keel view or a proposed diff has focus', () => {
    assert.deepEqual(bindings.map((b) => b.command).sort(), ['keel.approvePending', 'keel.approvePendingForTask', 'keel.rejectPending']);
    for (const b of bindings) {
      assert.match(b.when ?? '', /focusedView == keel\.chat/);
      assert.match(b.when ?? '', /keel\.proposedEditActive/);
      assert.ok(
        pkg.contributes.commands.some((c) => c.command === b.command),
        `${b.command} is a declared command`,
      );
    }
  });

  it('the view lists each binding as package.json declares it', () => {
    assert.deepEqual(
      APPROVAL_KEYS.map(({ command, key, mac }) => ({ command, key, mac })),
      bindings.map(({ command, key, mac }) => ({ command, key, mac })),
    );
  });

  it('names the keys in the notation of the platform the view runs on, and only that one', () => {
    const linux = approvalKeysTitle(false);
    assert.equal(linux, 'Approve: Alt+Shift+Y · Reject: Alt+Shift+N · Approve always for this task: Alt+Shift+A');
    assert.doesNotMatch(linux, /[⌥⌘⇧⌃]/);
    assert.equal(keyLabel(APPROVAL_KEYS[0]!, true), '⌥⇧⌘Y');
    assert.doesNotMatch(approvalKeysTitle(true), /Alt|Ctrl/);
    assert.equal(onMac({ platform: 'Linux x86_64', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' }), false);
    assert.equal(onMac({ platform: 'MacIntel' }), true);
  });

  it('binds the diff title bar’s ✓ and ✗ to the approval keys, so their tooltips name them', () => {
    // VS Code's tooltip of a title-bar action is its command's title plus that command's own key.
    const titleBar = pkg.contributes.menus['editor/title'].filter((m) => /^keel\.(approve|reject)Edit$/.test(m.command));
    assert.deepEqual(titleBar.map((m) => m.command).sort(), ['keel.approveEdit', 'keel.rejectEdit']);
    const keyOf = (command: string) => pkg.contributes.keybindings.find((b) => b.command === command);
    for (const [edit, pending] of [
      ['keel.approveEdit', 'keel.approvePending'],
      ['keel.rejectEdit', 'keel.rejectPending'],
    ] as const) {
      const own = keyOf(edit);
      assert.ok(own, `${edit} has a keybinding`);
      assert.deepEqual([own.key, own.mac], [keyOf(pending)!.key, keyOf(pending)!.mac], 'the same key as the card’s');
      assert.match(own.when ?? '', /keel\.proposedEditActive/, 'bound in a proposal’s diff');
    }
  });
});
