// The header's mode picker through the host: a message sent with a mode is logged after a
// mode_set, the model reads the mode with it, and the view's hints carry the task's mode.
import assert from 'node:assert/strict';
import { PLAN_APPROVED_TEXT, Registry, Runtime, type ModelEvent, type ModelRequest } from '../../../src/kernel/index.js';
import type { HostMessage, SessionSnapshot } from '../../../src/protocol/index.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { todoWriteTool } from '../../../src/tools/todos/todo-write.js';
import { Session } from '../../../src/host/session/session.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { scratchDir } from '../../support/scratch.js';
import { standInSessionDeps, taskLogsOnDisk } from '../../support/stand-in-session.js';
import { memoryWorkspace } from '../kernel/helpers.js';

const PLAN = [
  { id: '1', text: 'Read the parser', status: 'pending' },
  { id: '2', text: 'Fix exponents', status: 'pending' },
];

/** The stand-in model: in Plan mode it writes the plan, otherwise it answers. */
function turn(request: ModelRequest): ModelEvent[] {
  const last = request.messages.at(-1);
  if (last?.role === 'user' && last.text.includes('Plan mode')) return toolTurn('todo_write', { todos: PLAN });
  return textTurn('ok');
}

function world() {
  const sent: string[] = [];
  const posted: HostMessage[] = [];
  const tasks = new TaskStore({
    dir: scratchDir('session-mode'),
    logs: taskLogsOnDisk,
    createRuntime: ({ events, store }) => {
      const provider = new ScriptedProvider((request) => {
        const last = request.messages.at(-1);
        sent.push(last?.role === 'user' ? last.text : '');
        return turn(request);
      });
      return new Runtime({ provider, registry: new Registry().addTool(todoWriteTool), workspace: memoryWorkspace(), store, events });
    },
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const session: Session = new Session(
    standInSessionDeps({
      tasks,
      post: (m) => posted.push(m),
    }),
  );
  return { tasks, session, sent, posted };
}

describe('host/session: the mode a message is sent in', () => {
  it('logs the mode before the message, tells the model, and the view shows the task’s mode', async () => {
    const w = world();
    await w.tasks.init();
    const task = await w.session.send('plan the fix', { mode: 'plan' });
    await task.idle();
    const types = task.getEvents().map((e) => e.type);
    assert.ok(types.indexOf('mode_set') >= 0 && types.indexOf('mode_set') < types.indexOf('user_message'));
    assert.match(w.sent[0]!, /Plan mode[\s\S]*plan the fix$/);
    await w.session.ready();
    const snap = w.posted.filter((m): m is SessionSnapshot => m.type === 'session/snapshot').at(-1)!;
    assert.equal(snap.hints.mode, 'plan');
  });

  it('approving the plan goes on in Agent mode with the plan as the to-do list', async () => {
    const w = world();
    await w.tasks.init();
    const task = await w.session.send('plan the fix', { mode: 'plan' });
    await task.idle();
    assert.deepEqual(task.getState().ledger.todos, PLAN);
    await w.session.approvePlan();
    await task.idle();
    const state = task.getState();
    assert.equal(state.mode, 'agent');
    assert.equal(w.sent.at(-1), PLAN_APPROVED_TEXT, 'sent in Agent mode: no mode note');
    assert.deepEqual(state.ledger.todos, PLAN, 'the plan is the list the agent works through');
    const approvals = task.getEvents().filter((e) => e.type === 'user_message').length;
    await w.session.approvePlan();
    await task.idle();
    assert.equal(task.getEvents().filter((e) => e.type === 'user_message').length, approvals, 'no plan waits in Agent mode');
  });
});
