import assert from 'node:assert/strict';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { renderTaskEvent } from '../../../src/cli/render-frames.js';
import type { Printer } from '../../../src/cli/render.js';
import { makeFrameRuntime, routed } from '../kernel/frame-helpers.js';

describe('keel run output for sub-agents', () => {
  it("indents a child's lines by depth and prints each plan task's state as it changes", async () => {
    const plan = {
      goal: 'look around',
      tasks: [
        { id: 'a', task: 'A read' },
        { id: 'b', task: 'B sum', depends_on: ['a'] },
        { id: 'c', task: 'C other', tools: ['missing'] },
        { id: 'd', task: 'D after c', depends_on: ['c'] },
      ],
    };
    const { runtime } = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate_plan', plan), textTurn('ok')],
        A: [toolTurn('read_note', { path: 'a.txt' }), textTurn('found alpha')],
        B: [textTurn('sum done')],
      }),
    );
    const lines: string[] = [];
    const printer: Printer = { out: () => undefined, line: (t) => lines.push(t) };
    for await (const out of runtime.send('ROOT')) if (out.kind === 'event') renderTaskEvent(printer, out.event, runtime.getState());
    const planLines = lines.filter((l) => l.startsWith('◆'));
    assert.deepEqual(planLines.slice(0, 4), [
      '◆ plan task a: waiting',
      '◆ plan task b: waiting',
      '◆ plan task c: waiting',
      '◆ plan task d: waiting',
    ]);
    for (const l of [
      '◆ plan task a: running',
      '◆ plan task a: done',
      '◆ plan task b: running',
      '◆ plan task b: done',
      '◆ plan task c: failed',
      '◆ plan task d: failed (not run)',
    ])
      assert.ok(planLines.includes(l), l);
    assert.ok(planLines.indexOf('◆ plan task a: done') < planLines.indexOf('◆ plan task b: running'));
    assert.ok(lines.includes('  ┌ sub-agent [a]: A read (tools: read_note, delegate)'), 'a child at depth 1 is indented once');
    assert.ok(lines.includes('  ▸ proposed read_note: a.txt [read]'));
    assert.ok(lines.includes('  │ found alpha'));
  });
});
