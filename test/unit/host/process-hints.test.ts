// The panel's list of the shown task's background processes: it follows the task's table as
// processes start, print their port and end, and Stop on a row ends that process (an unknown
// name is said, nothing else stops).
import assert from 'node:assert/strict';
import { composeRuntime, runtimeProcesses } from '../../../src/compose/index.js';
import { followProcesses, stopShownProcess } from '../../../src/host/session/process-hints.js';
import type { ProcessView } from '../../../src/protocol/index.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { type TempWorkspace, tempWorkspace } from '../tools/helpers.js';

describe('host: background processes in the panel', function () {
  this.timeout(20_000);
  let t: TempWorkspace;
  before(async () => {
    t = await tempWorkspace({
      'server.js': "const s=require('http').createServer();s.listen(0,'127.0.0.1',()=>console.log('listening on :'+s.address().port));",
    });
  });
  after(() => t.cleanup());

  it('follows starts, ports and ends, and Stop ends the named process', async () => {
    const runtime = composeRuntime({
      provider: new ScriptedProvider([textTurn('ok')]),
      settings: { maxTurns: 3, autoApprove: [], commandsAllow: [], commandsDeny: [] },
      workspace: t.ws,
      trusted: () => true,
      interactive: false,
    });
    const shown: ProcessView[][] = [];
    const unfollow = followProcesses(runtime, (v) => shown.push(v));
    assert.deepEqual(shown.at(-1), [], 'an empty list at first');
    const table = runtimeProcesses(runtime)!;
    await table.start({ name: 'web', command: 'node server.js' }, { settleMs: 10_000, signal: new AbortController().signal });
    const row = shown.at(-1)![0]!;
    assert.equal(row.name, 'web');
    assert.equal(row.ports.length, 1, 'the port it printed');
    assert.match((await stopShownProcess(runtime, 'nope')) ?? '', /No background process is named "nope"/);
    assert.equal(table.list()[0]!.state, 'running', 'an unknown name stops nothing');
    assert.equal(await stopShownProcess(runtime, 'web'), undefined);
    assert.deepEqual(shown.at(-1), [], 'gone from the list once ended');
    unfollow();
  });
});
