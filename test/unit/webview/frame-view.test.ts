import './dom-env.js';
import assert from 'node:assert/strict';
import type { RuntimeOutput } from '../../../src/kernel/index.js';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { applyOutput } from '../../../src/host/presenter/event-mapper.js';
import { TranscriptModel } from '../../../src/host/presenter/transcript-model.js';
import { makeFrameRuntime, routed } from '../kernel/frame-helpers.js';
import { click, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

/** Runs a task to its first approval (or its end), feeding every output through the presenter. */
async function presented(script: Parameters<typeof makeFrameRuntime>[0], stopAtApproval: boolean) {
  const { runtime } = makeFrameRuntime(script);
  const model = new TranscriptModel();
  const outs: RuntimeOutput[] = [];
  for await (const out of runtime.send('ROOT')) {
    outs.push(out);
    applyOutput(model, out);
    if (stopAtApproval && out.kind === 'event' && out.event.type === 'approval_requested') break;
  }
  return { runtime, model };
}

describe('webview: sub-agents', () => {
  it("nests a child's approval card in its run, under the delegate card, and approves it by id", async () => {
    const { model } = await presented(
      routed({
        ROOT: [toolTurn('delegate', { task: 'CHILD write c.txt', tools: ['write_note'] })],
        CHILD: [toolTurn('write_note', { path: 'c.txt', text: 'y' })],
      }),
      true,
    );
    const frame = model.items.find((i) => i.kind === 'frame')!;
    const child = model.items.find((i) => i.kind === 'intent' && i.frame === frame.id)!;
    // The webview gets the live ops one delta at a time, as the host sends them.
    const t = makeApp();
    t.receive(snapshot([]));
    t.receive(deltas()(...model.takeOps()));
    t.frame();
    const card = q(t.root, `[data-item-id="${frame.id}"]`);
    assert.equal(card.getAttribute('data-testid'), 'frame-card');
    const delegateCard = q(t.root, '[data-testid="intent-card"]');
    assert.equal(delegateCard.nextElementSibling, card, 'the run sits right under the delegate card');
    assert.equal(card.tagName, 'DETAILS', 'collapsed, expandable');
    const nested = card.querySelector(`[data-testid="approve-${child.id}"] [data-testid="approve"]`);
    assert.ok(nested, "the child's approval card is inside the run");
    t.posted.length = 0;
    click(nested as HTMLElement);
    assert.deepEqual(t.posted, [{ type: 'intent/approve', intentId: child.id, scope: 'once' }]);
  });

  it("shows a plan as a live list of its tasks' states, each row holding its run", async () => {
    const plan = {
      goal: 'g',
      tasks: [
        { id: 'a', task: 'A look' },
        { id: 'b', task: 'B missing tool', tools: ['nope'] },
        { id: 'c', task: 'C after b', depends_on: ['b'] },
      ],
    };
    const { model } = await presented(
      routed({ ROOT: [toolTurn('delegate_plan', plan), textTurn('ok')], A: [textTurn('found it')] }),
      false,
    );
    const t = makeApp();
    t.receive(snapshot(model.items));
    t.frame();
    const list = q(t.root, '[data-testid="plan-list"]');
    const state = (id: string) => q(list, `[data-task-id="${id}"]`).getAttribute('data-state');
    assert.equal(state('a'), 'done');
    assert.equal(state('b'), 'failed');
    assert.equal(state('c'), 'failed', 'never started: failed');
    const run = q(list, '[data-task-id="a"] [data-testid="frame-card"]');
    assert.match(run.textContent ?? '', /found it/);
    assert.match(run.textContent ?? '', /done · 1 turn · 0 calls/);
  });
});
