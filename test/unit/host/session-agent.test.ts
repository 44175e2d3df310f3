// The header picker's custom agent through the host: a message sent with an agent's name is sent
// as that agent (its profile logged by agent_set, its instructions and tools reaching the model) —
// resolved by the same function as `keel run --agent`; '' goes back to no agent; an unknown name
// is refused and nothing is sent; the view is told the agents and the task’s agent (a slash
// command’s too), and a New Task none.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { listAgents } from '../../../src/compose/runtime.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import type { SessionSnapshot } from '../../../src/protocol/index.js';
import { composedSessionWorld, sessionIdle } from '../../support/composed-session.js';

function world() {
  return composedSessionWorld({
    name: 'session-agent',
    files: {
      '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code.\ntools: Read\n---\nREVIEW-CAREFULLY\n',
      '.claude/commands/review.md': '---\nagent: reviewer\n---\nReview $1.\n',
    },
    reply: 'ok',
    folders: (base, ws) => {
      const agents = { user: userSkillFolder(path.join(base, 'user-agents')) };
      const commands = { user: userSkillFolder(path.join(base, 'user-commands')) };
      // What the extension passes (RuntimeFactory.agents): the same folders, before any task exists.
      return { compose: { agents, commands }, deps: { agents: () => listAgents({ agents, workspace: ws, trusted: () => true }) } };
    },
  });
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
    await sessionIdle(w.session);
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
    await sessionIdle(w.session);
    assert.equal(task.getState().agent, undefined);
    assert.ok(w.providers.at(-1)!.requests.at(-1)!.tools.length > 1, 'every tool again');
  });

  it('refuses an unknown agent with the names there are and sends nothing', async () => {
    const w = await world();
    await w.session.send('review', { agent: 'nobody' });
    await sessionIdle(w.session);
    assert.deepEqual(w.refused, ['Not sent: there is no custom agent named "nobody" (the agents are: reviewer).']);
    assert.equal(w.providers.flatMap((p) => p.requests).length, 0);
  });

  it('names the agent a slash command ran as in the header, and a New Task runs and shows none', async () => {
    const w = await world();
    const task = await w.session.send('/review a.txt');
    await sessionIdle(w.session);
    assert.equal(task.getState().agent?.name, 'reviewer');
    await w.session.ready();
    assert.equal(lastSnapshot(w).hints.agent, 'reviewer', 'the header names the agent the message ran as');

    const fresh = await w.session.newTask();
    assert.notEqual(fresh.id, task.id);
    assert.equal(lastSnapshot(w).hints.agent, undefined, 'a New Task shows no agent');
    await w.session.send('plain question');
    await sessionIdle(w.session);
    assert.equal(fresh.getState().agent, undefined);
    assert.doesNotMatch(w.providers.at(-1)!.requests.at(-1)!.system, /REVIEW-CAREFULLY/, 'and runs as none');
  });
});

function lastSnapshot(w: { posted: unknown[] }): SessionSnapshot {
  return w.posted.filter((m): m is SessionSnapshot => (m as SessionSnapshot).type === 'session/snapshot').at(-1)!;
}
