// The yardstick of the context benchmark, computed from the task alone — never from the requests
// Keel sent. The task's calls (PLAN) are run straight through the tools on a copy of the workspace
// (every read whole, no "unchanged since"), giving the full, never-folded history an agent with an
// endless window would carry. The ideal bills that history with a perfect prompt cache (each
// request reads all of the one before from the cache and writes only what is new); the naive bills
// it resent in full, uncached, every turn. A build that folds too often, or whose system prompt
// changes, pays more against the same yardstick; the yardstick does not move.
import * as fs from 'node:fs';
import { estimateTokens, fixedTokens, type ToolContext, type ToolSchema } from '../../src/kernel/index.js';
import { messageTokens } from '../../src/kernel/context/tokens.js';
import { composeRegistry } from '../../src/compose/index.js';
import { createNodeWorkspace } from '../../src/node/node-workspace.js';
import { searchByWalking } from '../../src/tools/index.js';
import type { Price } from '../../src/providers/index.js';
import { ANSWER, GOAL, OUTSIDE_EDIT, PLAN, toolInput, turnText } from './task.js';
import { createWorkspace, editOutside } from './workspace.js';

export interface Yardstick {
  ideal: number;
  naive: number;
  /** The never-folded history's size at each turn's request, in tokens. */
  requestTokens: number[];
}

/** The task's turns are the same in every run: they are played once per process. */
let planned: Promise<{ assistant: number; results: number }[]> | undefined;

/** `system` and `tools`: what every request carries, as the task's agent is given them. */
export async function yardstick(system: string, tools: readonly ToolSchema[], price: Price): Promise<Yardstick> {
  planned ??= playPlan();
  const steps = await planned;
  const fixed = fixedTokens(system, tools) + messageTokens({ role: 'user', text: GOAL });
  let history = fixed;
  let ideal = 0;
  let naive = 0;
  const requestTokens: number[] = [];
  const bill = (fresh: number, output: number) => {
    // Perfect cache: all of the previous request read at 10%, the new part written at 125%.
    ideal += ((history - fresh) * price.cacheRead + fresh * price.cacheWrite + output * price.output) / 1_000_000;
    naive += (history * price.input + output * price.output) / 1_000_000;
    requestTokens.push(history);
  };
  let fresh = history;
  for (const step of steps) {
    bill(fresh, step.assistant - 4);
    fresh = step.assistant + step.results;
    history += fresh;
  }
  bill(fresh, estimateTokens(ANSWER));
  return { ideal, naive, requestTokens };
}

/** Each planned turn's assistant message and results, in tokens, as the tools answer on a fresh workspace. */
async function playPlan(): Promise<{ assistant: number; results: number }[]> {
  const root = createWorkspace();
  try {
    const workspace = await createNodeWorkspace(root, { fallbackSearch: searchByWalking });
    const registry = composeRegistry(workspace);
    const versions: Record<string, string> = {};
    const out: { assistant: number; results: number }[] = [];
    for (const [i, calls] of PLAN.entries()) {
      if (i + 1 === OUTSIDE_EDIT.beforeTurn) editOutside(root, OUTSIDE_EDIT.file);
      const wire = calls.map(toolInput);
      let results = 0;
      for (const { name, input } of wire) {
        const ctx: ToolContext = {
          workspace,
          signal: new AbortController().signal,
          fileVersions: { ...versions },
          onProgress: () => undefined,
        };
        const r = await registry.tool(name)!.execute(name === 'read_file' ? { ...input, force: true } : input, ctx);
        Object.assign(versions, r.fileVersions ?? {});
        results += estimateTokens(r.ok ? r.content : `Error (${r.code ?? 'execution_failed'}): ${r.content}`) + 10;
      }
      const assistant = messageTokens({
        role: 'assistant',
        text: turnText(i + 1, calls),
        toolCalls: wire.map((c, k) => ({ intentId: `${i}.${k}`, providerRef: '', tool: c.name, input: c.input })),
      });
      out.push({ assistant, results });
    }
    return out;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
