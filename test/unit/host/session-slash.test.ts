// `/name args` typed in the composer: the session expands it with the same function as
// `keel run "/name args"` (the model receives the saved prompt, the command's tools narrow the
// run), and an unknown name is refused with the names there are, sending nothing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime, listCommands } from '../../../src/compose/runtime.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { standInSessionDeps, taskLogsOnDisk } from '../../support/stand-in-session.js';

async function world() {
  const base = scratchDir('session-slash');
  const root = path.join(base, 'ws');
  fs.mkdirSync(path.join(root, '.claude/commands'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude/commands/greet.md'), '---\ntools: Read\n---\nSay hello to $1.\n');
  const ws = await createNodeWorkspace(root);
  const providers: ScriptedProvider[] = [];
  const refused: string[] = [];
  const posted: unknown[] = [];
  const tasks = new TaskStore({
    dir: path.join(base, 'tasks'),
    logs: taskLogsOnDisk,
    createRuntime: ({ events, store }) => {
      const provider = new ScriptedProvider(() => textTurn('hello'));
      providers.push(provider);
      return composeRuntime({
        provider,
        settings: { maxTurns: 4, autoApprove: ['read'], commandsAllow: [], commandsDeny: [] },
        workspace: ws,
        trusted: () => true,
        interactive: true,
        store,
        events,
        commands: { user: userSkillFolder(path.join(base, 'user-commands')) },
      });
    },
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const session: Session = new Session(
    standInSessionDeps({
      tasks,
      // What the extension passes (RuntimeFactory.commands): the same folders, before any task exists.
      commands: () =>
        listCommands({ commands: { user: userSkillFolder(path.join(base, 'user-commands')) }, workspace: ws, trusted: () => true }),
      post: (m) => posted.push(m),
      refuse: (m) => refused.push(m),
    }),
  );
  await tasks.init();
  return { session, tasks, providers, refused, posted };
}

async function idle(session: Session): Promise<void> {
  for (let i = 0; i < 200 && session.current?.busy; i++) await new Promise((r) => setTimeout(r, 5));
}

describe('host/session: slash commands typed in the composer', () => {
  it('sends the saved prompt with the arguments, narrowed to the command tools', async () => {
    const w = await world();
    await w.session.send('/greet Ada');
    await idle(w.session);
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
    await idle(w.session);
    assert.deepEqual(w.refused, ['there is no command "/nope" (the commands are: /greet).']);
    assert.equal(w.providers.flatMap((p) => p.requests).length, 0);
  });
});
