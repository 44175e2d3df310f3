import assert from 'node:assert/strict';
import { z } from 'zod';
import type { ToolDefinition } from '../../../src/kernel/index.js';
import { textTurn } from '../../../src/providers/scripted.js';
import { drain, makeRuntime } from './helpers.js';
import { calls } from './frame-helpers.js';

/** Tools that log when they start and end, yielding in between so overlapping calls interleave. */
function probe(name: string, safe: boolean, log: string[]): ToolDefinition<{ n: number }> {
  return {
    name,
    kind: safe ? 'read' : 'other',
    description: name,
    input: z.object({ n: z.number() }),
    risk: safe ? 'read' : 'write',
    readOnly: safe,
    concurrencySafe: safe,
    outputBudgetTokens: 100,
    summarize: (i) => String(i.n),
    async execute(input) {
      log.push(`start ${input.n}`);
      await new Promise((r) => setImmediate(r));
      log.push(`end ${input.n}`);
      return { ok: true, content: `${input.n}` };
    },
  };
}

describe('calls of one turn', () => {
  it('run concurrency-safe calls together and any other call alone, approvals still in order', async () => {
    const log: string[] = [];
    const { runtime, registry } = makeRuntime([
      calls(
        { tool: 'look', input: { n: 1 } },
        { tool: 'look', input: { n: 2 } },
        { tool: 'change', input: { n: 3 } },
        { tool: 'look', input: { n: 4 } },
      ),
      textTurn('ok'),
    ]);
    registry.addTool(probe('look', true, log)).addTool(probe('change', false, log));
    const asked: string[] = [];
    await drain(runtime.send('go'), (id) => {
      asked.push(id);
      log.push('asked');
      runtime.approve(id);
    });
    assert.deepEqual(log, ['asked', 'start 1', 'start 2', 'end 1', 'end 2', 'start 3', 'end 3', 'start 4', 'end 4']);
    assert.equal(asked.length, 1);
    const results = runtime.getState().messages.filter((m) => m.type === 'observation');
    assert.equal(results.length, 4, 'every call answered once');
  });
});
