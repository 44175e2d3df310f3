// The approval keys are declared once (package.json keybindings); the card's tooltip and the
// welcome list them, so a changed binding that is not changed there fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { APPROVAL_KEYS_TITLE } from '../../../media/intent-card.js';

interface Keybinding {
  command: string;
  key: string;
  mac?: string;
  when?: string;
}

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  contributes: { keybindings: Keybinding[]; commands: { command: string }[] };
};

const shown = (key: string) => key.replace(/\b\w/g, (c) => c.toUpperCase());

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

  it('the card tooltip lists each binding as declared', () => {
    for (const b of bindings) assert.ok(APPROVAL_KEYS_TITLE.includes(shown(b.key)), `${b.key} in "${APPROVAL_KEYS_TITLE}"`);
  });
});
