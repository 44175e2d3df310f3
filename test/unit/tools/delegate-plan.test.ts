import assert from 'node:assert/strict';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { planProblem } from '../../../src/tools/delegate/plan-schema.js';
import { drain } from '../kernel/helpers.js';
import { makeFrameRuntime, routed, yielding } from '../kernel/frame-helpers.js';

const diamond = {
  goal: 'understand the price code',
  tasks: [
    { id: 'a', task: 'A find the price module' },
    { id: 'b', task: 'B read its tests', depends_on: ['a'] },
    { id: 'c', task: 'C read its callers', depends_on: ['a'] },
    { id: 'd', task: 'D summarise', depends_on: ['b', 'c'] },
  ],
};

function planTaskOf(events: readonly RuntimeEvent[], e: RuntimeEvent): string | undefined {
  const start = events.find((s) => s.type === 'frame_started' && s.frame === e.frame);
  return start?.type === 'frame_started' ? start.planTaskId : undefined;
}

describe('delegate_plan', () => {
  it('runs a diamond: results reach dependents, independent read-only tasks overlap', async () => {
    const { runtime, provider } = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate_plan', diamond), textTurn('ok')],
        A: [yielding(textTurn('price.js is the module'))],
        B: [yielding(toolTurn('read_note', { path: 'a.txt' })), yielding(textTurn('tests cover rounding'))],
        C: [yielding(toolTurn('read_note', { path: 'a.txt' })), yielding(textTurn('cart.js calls it'))],
        D: [yielding(textTurn('summary'))],
      }),
    );
    await drain(runtime.send('ROOT'));
    const events = runtime.getEvents();
    const starts = events.filter((e) => e.type === 'frame_started');
    assert.deepEqual(
      starts.map((s) => s.type === 'frame_started' && s.planTaskId),
      ['a', 'b', 'c', 'd'],
    );
    const ends = events.filter((e) => e.frame && e.type === 'run_finished').map((e) => planTaskOf(events, e));
    assert.equal(ends[0], 'a', 'a finishes before its dependents start');
    const startC = events.indexOf(starts[2]!);
    const endB = events.findIndex((e) => e.type === 'run_finished' && planTaskOf(events, e) === 'b');
    assert.ok(startC < endB, 'b and c run at the same time');

    const brief = (agent: string) =>
      provider.requests.find((r) => r.messages[0]?.role === 'user' && r.messages[0].text.startsWith(agent))!.messages[0]!;
    assert.ok(brief('B').role === 'user' && (brief('B') as { text: string }).text.includes('price.js is the module'));
    const d = (brief('D') as { text: string }).text;
    assert.ok(d.includes('### b\ntests cover rounding') && d.includes('### c\ncart.js calls it'), 'd gets both results');
    assert.ok(!d.includes('price.js is the module'), 'only the results of the tasks it depends on');

    const observation = runtime.getState().messages.find((m) => m.type === 'observation')!;
    assert.ok(observation.type === 'observation' && observation.observation.ok);
    const content = observation.type === 'observation' ? observation.observation.content : '';
    for (const id of ['a', 'b', 'c', 'd']) assert.ok(content.includes(`## ${id} (done)`), `result of ${id}`);
  });

  it('refuses a cycle before anything runs, naming it', async () => {
    const plan = {
      goal: 'g',
      tasks: [
        { id: 'x', task: 'X', depends_on: ['y'] },
        { id: 'y', task: 'Y', depends_on: ['x'] },
      ],
    };
    const { runtime } = makeFrameRuntime(routed({ ROOT: [toolTurn('delegate_plan', plan), textTurn('ok')] }));
    await drain(runtime.send('ROOT'));
    assert.equal(runtime.getEvents().filter((e) => e.type === 'frame_started').length, 0);
    const o = runtime.getState().messages.find((m) => m.type === 'observation')!;
    assert.ok(o.type === 'observation' && o.observation.code === 'invalid_input');
    assert.match(o.type === 'observation' ? o.observation.content : '', /cycle: x → y → x/);
  });

  it('names a duplicate id and an unknown dependency', () => {
    assert.equal(
      planProblem([
        { id: 'a', task: 't' },
        { id: 'a', task: 'u' },
      ]),
      'duplicate task id "a"',
    );
    assert.equal(planProblem([{ id: 'a', task: 't', depends_on: ['zz'] }]), 'task "a" depends on unknown task "zz"');
    assert.equal(planProblem(diamond.tasks), undefined);
  });

  it('skips the dependents of a failed task and reports each by id', async () => {
    const plan = {
      goal: 'g',
      tasks: [
        { id: 'a', task: 'A x', tools: ['nope'] },
        { id: 'b', task: 'B y', depends_on: ['a'] },
      ],
    };
    const { runtime } = makeFrameRuntime(routed({ ROOT: [toolTurn('delegate_plan', plan), textTurn('ok')] }));
    await drain(runtime.send('ROOT'));
    const o = runtime.getState().messages.find((m) => m.type === 'observation')!;
    const content = o.type === 'observation' ? o.observation.content : '';
    assert.ok(content.includes('## a (failed)') && content.includes('"nope"'));
    assert.ok(content.includes('## b (skipped)'));
  });

  it('is not offered to a child: a sub-agent cannot plan', async () => {
    const { runtime, provider } = makeFrameRuntime(
      routed({ ROOT: [toolTurn('delegate', { task: 'CHILD x', tools: ['delegate_plan'] }), textTurn('ok')] }),
    );
    await drain(runtime.send('ROOT'));
    assert.equal(provider.requests.length, 2, 'the child never ran');
    const o = runtime.getState().messages.find((m) => m.type === 'observation')!;
    assert.match(o.type === 'observation' ? o.observation.content : '', /cannot run plans/);
  });
});
