// `/name args` typed in the composer: the session expands it with the same function as
// `keel run "/name args"` (the model receives the saved prompt, the command's tools narrow the
// run), and an unknown name is refused with the names there are, sending nothing.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { listCommands } from '../../../src/compose/runtime.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import { composedSessionWorld, sessionIdle } from '../../support/composed-session.js';

function world() {
  return composedSessionWorld({
    name: 'session-slash',
    files: { '.claude/commands/greet.md': '---\ntools: Read\n---\nSay hello to $1.\n' },
    reply: 'hello',
    folders: (base, ws) => {
      const commands = { user: userSkillFolder(path.join(base, 'user-commands')) };
      // What the extension passes (RuntimeFactory.commands): the same folders, before any task exists.
      return { compose: { commands }, deps: { commands: () => listCommands({ commands, workspace: ws, trusted: () => true }) } };
    },
  });
}

describe('host/session: slash commands typed in the composer', () => {
  it('sends the saved prompt with the arguments, narrowed to the command tools', async () => {
    const w = await world();
    await w.session.send('/greet Ada');
    await sessionIdle(w.session);
    const request = w.providers.at(-1)!.requests[0]!;
    const last = request.messages.at(-1);
    assert.equal(last?.role === 'user' ? last.text : '', 'Say hello to Ada.');
    assert.deepEqual(
      request.tools.map((t) => t.name),
      ['read_file'],
    );
    // The composer's completion list reaches the view as a hint.
    assert.ok(JSON.stringify(w.posted).includes('"commands":[{"name":"greet"}]'), 'the view is told the commands');
  });

  it('lists the commands in a new window, before any task exists, and creates no task for it', async () => {
    const w = await world();
    await w.session.ready();
    assert.equal(w.session.current, undefined);
    assert.deepEqual(w.tasks.list(), [], 'no empty task in the history');
    assert.ok(JSON.stringify(w.posted).includes('"commands":[{"name":"greet"}]'), 'the composer can complete /greet');
  });

  it('refuses an unknown command with the names there are and sends nothing', async () => {
    const w = await world();
    await w.session.send('/nope');
    await sessionIdle(w.session);
    assert.deepEqual(w.refused, ['there is no command "/nope" (the commands are: /greet).']);
    assert.equal(w.providers.flatMap((p) => p.requests).length, 0);
  });
});
