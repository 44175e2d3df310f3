// The header picker's custom agent through the host: a message sent with an agent's name is sent
// as that agent (its profile logged by agent_set, its instructions and tools reaching the model) —
// resolved by the same function as `keel run --agent`; '' goes back to no agent; an unknown name
// is refused and nothing is sent; the view is told the agents and the task's agent.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime, listAgents } from '../../../src/compose/runtime.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import type { SessionSnapshot } from '../../../src/protocol/index.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { standInSessionDeps, taskLogsOnDisk } from '../../support/stand-in-session.js';

async function world() {
  const base = scratchDir('session-agent');
  const root = path.join(base, 'ws');
  fs.mkdirSync(path.join(root, '.claude/agents'), { recursive: true });
  fs.writeFileSync(
    path.join(root, '.claude/agents/reviewer.md'),
    '---\nname: reviewer\ndescription: Reviews code.\ntools: Read\n---\nREVIEW-CAREFULLY\n',
  );
  const ws = await createNodeWorkspace(root);
  const providers: ScriptedProvider[] = [];
  const refused: string[] = [];
  const posted: unknown[] = [];
  const tasks = new TaskStore({
    dir: path.join(base, 'tasks'),
    logs: taskLogsOnDisk,
    createRuntime: ({ events, store }) => {
      const provider = new ScriptedProvider(() => textTurn('ok'));
      providers.push(provider);
      return composeRuntime({
        provider,
        settings: { maxTurns: 4, autoApprove: ['read'], commandsAllow: [], commandsDeny: [] },
        workspace: ws,
        trusted: () => true,
        interactive: true,
        store,
        events,
        agents: { user: userSkillFolder(path.join(base, 'user-agents')) },
      });
    },
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const session: Session = new Session(
    standInSessionDeps({
      tasks,
      // What the extension passes (RuntimeFactory.agents): the same folders, before any task exists.
      agents: () => listAgents({ agents: { user: userSkillFolder(path.join(base, 'user-agents')) }, workspace: ws, trusted: () => true }),
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

describe('host/session: the custom agent picked in the header', () => {
  it('lists the agents in a new window, before any task exists, and creates no task for it', async () => {
    const w = await world();
    await w.session.ready();
    assert.equal(w.session.current, undefined);
    assert.deepEqual(w.tasks.list(), [], 'no empty task in the history');
    assert.ok(
      JSON.stringify(w.posted).includes('"agents":[{"name":"reviewer","description":"Reviews code."}]'),
      'the picker lists reviewer',
    );
  });

  it('sends the message as the agent, tells the view the agents and the task’s agent, and goes back with an empty name', async () => {
    const w = await world();
    const task = await w.session.send('review a.txt', { mode: 'agent', agent: 'reviewer' });
    await idle(w.session);
    const events = task.getEvents();
    const set = events.find((e) => e.type === 'agent_set');
    assert.equal(set?.type === 'agent_set' ? set.agent?.name : '', 'reviewer');
    assert.ok(events.indexOf(set!) < events.findIndex((e) => e.type === 'user_message'), 'logged before the message');
    const request = w.providers.at(-1)!.requests[0]!;
    assert.match(request.system, /REVIEW-CAREFULLY/);
    assert.deepEqual(
      request.tools.map((t) => t.name),
      ['read_file'],
    );
    await w.session.ready();
    const snap = w.posted.filter((m): m is SessionSnapshot => (m as SessionSnapshot).type === 'session/snapshot').at(-1)!;
    assert.deepEqual(snap.hints.agents, [{ name: 'reviewer', description: 'Reviews code.' }]);
    assert.equal(snap.hints.agent, 'reviewer');

    await w.session.send('now anything', { agent: '' });
    await idle(w.session);
    assert.equal(task.getState().agent, undefined);
    assert.ok(w.providers.at(-1)!.requests.at(-1)!.tools.length > 1, 'every tool again');
  });

  it('refuses an unknown agent with the names there are and sends nothing', async () => {
    const w = await world();
    await w.session.send('review', { agent: 'nobody' });
    await idle(w.session);
    assert.deepEqual(w.refused, ['Not sent: there is no custom agent named "nobody" (the agents are: reviewer).']);
    assert.equal(w.providers.flatMap((p) => p.requests).length, 0);
  });
});
