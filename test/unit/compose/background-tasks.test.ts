// Each composed task has its own background processes, offered as tools beside the shared ones,
// and a task closed in the editor (Task.dispose) stops what it started; the system prompt
// teaches the loop (start the server, check the page) only where a browser can check it.
import assert from 'node:assert/strict';
import { composeRuntime, runtimeProcesses } from '../../../src/compose/index.js';
import { Task } from '../../../src/host/tasks/task.js';
import type { BrowserChecker, Workspace } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { type TempWorkspace, tempWorkspace } from '../tools/helpers.js';

function compose(workspace: Workspace, provider = new ScriptedProvider([textTurn('ok')])) {
  return composeRuntime({
    provider,
    settings: { maxTurns: 3, autoApprove: [], commandsAllow: [], commandsDeny: [] },
    workspace,
    trusted: () => true,
    interactive: false,
  });
}

const browser: BrowserChecker = { allowsHost: () => false, check: () => Promise.reject(new Error('unused')) };

describe('background processes per composed task', function () {
  this.timeout(20_000);
  let t: TempWorkspace;
  before(async () => {
    t = await tempWorkspace({});
  });
  after(() => t.cleanup());

  it('gives each task its own table and stops it when the task is disposed', async () => {
    const one = compose(t.ws);
    const two = compose(t.ws);
    const table = runtimeProcesses(one)!;
    assert.notEqual(table, runtimeProcesses(two), 'tasks do not share processes');
    assert.ok(one.tool('start_process') && one.tool('read_process_output') && one.tool('stop_process') && one.tool('list_processes'));
    await table.start({ name: 'w', command: 'sleep 30' }, { settleMs: 50, signal: new AbortController().signal });
    const task = new Task({ id: 't1', title: 't', createdAt: 0, updatedAt: 0, status: 'idle' }, one, {
      onStatus: () => {},
      onCrash: () => {},
    });
    task.dispose();
    const end = Date.now() + 5000;
    while (table.list()[0]!.state === 'running' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.equal(table.list()[0]!.state, 'stopped');
    assert.equal(runtimeProcesses(two)!.list().length, 0);
  });

  it('teaches start the server, then check the page, only with a browser', async () => {
    const systemOf = async (ws: Workspace) => {
      const provider = new ScriptedProvider([textTurn('ok')]);
      await compose(ws, provider).run('hi');
      return JSON.stringify(provider.requests[0]?.system);
    };
    assert.match(await systemOf({ ...t.ws, browser }), /start it with start_process, then look at the page with browser_check/);
    assert.doesNotMatch(await systemOf(t.ws), /browser_check/);
  });
});
