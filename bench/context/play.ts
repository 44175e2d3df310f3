// One run of the context benchmark's task at a window: the stand-in model over the Anthropic wire
// format, through the real adapter, the kernel and the real tools on a generated workspace. The
// stand-in server bills every request as Anthropic's cache would (CacheSimulator) and refuses one
// over the window, as the API does. `layout` plays a deliberately bad build besides Keel's own:
// one that folds before every turn, or one whose system prompt changes with every request.
import * as fs from 'node:fs';
import { Runtime, type ModelProvider, type ModelRequest, type RuntimeEvent, fixedTokens } from '../../src/kernel/index.js';
import { toolSchema } from '../../src/kernel/registry.js';
import { createAnthropicProvider, priceOf } from '../../src/providers/index.js';
import { composeRegistry } from '../../src/compose/index.js';
import { createPolicy, searchByWalking } from '../../src/tools/index.js';
import { createNodeWorkspace } from '../../src/node/node-workspace.js';
import { startModelServer } from '../../test/support/model-server.js';
import { anthropicSse } from '../../test/support/anthropic-wire.js';
import { blocksOf, CacheSimulator, costOfBill, type Block } from './billing.js';
import { GOAL, OUTSIDE_EDIT, StandInModel, type WireBody } from './task.js';
import { createWorkspace, editOutside } from './workspace.js';
import { yardstick, type Yardstick } from './yardstick.js';

/** Priced like Sonnet 4.5 ($3 / $15, cache read $0.30, write $3.75); its window is set per run. */
export const MODEL = 'claude-sonnet-4-6';
const PRICE = priceOf(MODEL)!;
const SYSTEM = 'You are Keel, a coding agent. Work in the workspace with the tools; say when you are done.';

export type Layout = 'keel' | 'fold-every-turn' | 'changing-system';

interface Sent {
  body: WireBody;
  blocks: Block[];
  kind: 'turn' | 'note';
  outputTokens: number;
  /** Refused by the server: over the window. */
  refused: boolean;
}

export interface Played {
  window: number;
  layout: Layout;
  sent: Sent[];
  events: RuntimeEvent[];
  model: StandInModel;
  budgetTokens: number;
  status: string;
  /** What the requests cost, billed as the API's cache would. */
  cost: number;
  /** The task's own yardstick (the same for every layout). */
  yardstick: Yardstick;
  /** Whether the task's tests pass at the end (the bugs were fixed). */
  testsPass: boolean;
}

export async function play(window: number, layout: Layout = 'keel'): Promise<Played> {
  const root = createWorkspace();
  const model = new StandInModel((turn) => {
    if (turn === OUTSIDE_EDIT.beforeTurn) editOutside(root, OUTSIDE_EDIT.file);
  });
  const sim = new CacheSimulator();
  const sent: Sent[] = [];
  let fixed = 0;
  let cost = 0;
  const server = await startModelServer((req) => {
    const body = req.body as WireBody;
    const blocks = blocksOf(req.body, fixed);
    const tokens = blocks.reduce((n, b) => n + b.tokens, 0);
    if (tokens > window) {
      sent.push({ body, blocks, kind: 'turn', outputTokens: 0, refused: true });
      const message = `prompt is too long: ${tokens} tokens > ${window} maximum`;
      return { type: 'json', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } };
    }
    const reply = model.reply(body);
    const bill = sim.bill(blocks);
    cost += costOfBill(bill, reply.outputTokens, PRICE);
    sent.push({ body, blocks, kind: reply.kind, outputTokens: reply.outputTokens, refused: false });
    const usage = { input: bill.input, cacheRead: bill.cacheRead, cacheWrite: bill.cacheWrite, output: reply.outputTokens };
    return { type: 'stream', body: anthropicSse({ ...reply.turn, usage, model: MODEL }) };
  });
  try {
    const inner = createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: 'bench', model: MODEL, contextWindow: window });
    let n = 0;
    const provider: ModelProvider = {
      name: inner.name,
      model: inner.model,
      capabilities: inner.capabilities,
      stream(request: ModelRequest, signal: AbortSignal) {
        // The bad build: a system prompt that differs in every request (a timestamp in it, say).
        const shown = layout === 'changing-system' ? { ...request, system: `${request.system}\nRequest ${++n}.` } : request;
        // The kernel's own weight of system + tools, for the billing's first block.
        fixed = fixedTokens(shown.system, shown.tools);
        return inner.stream(shown, signal);
      },
    };
    const workspace = await createNodeWorkspace(root, { fallbackSearch: searchByWalking });
    const registry = composeRegistry(workspace);
    const runtime = new Runtime({
      provider,
      registry,
      workspace,
      system: SYSTEM,
      policy: createPolicy({ autoApprove: ['read', 'write', 'execute', 'network'], approveUnclassified: true }),
      maxTurns: 80,
      visibility: { trusted: true, hasDiagnostics: false },
    });
    for await (const out of runtime.send(GOAL)) {
      // The bad build: every finished step is folded before the next turn.
      if (layout === 'fold-every-turn' && out.kind === 'event' && out.event.type === 'model_final') void runtime.fold();
    }
    const state = runtime.getState();
    const tools = registry.visibleTools({ trusted: true, hasDiagnostics: false }).map(toolSchema);
    return {
      window,
      layout,
      sent,
      events: runtime.getEvents() as RuntimeEvent[],
      model,
      budgetTokens: inner.capabilities.contextWindow - inner.capabilities.maxOutputTokens,
      status: state.status,
      cost,
      yardstick: await yardstick(SYSTEM, tools, PRICE),
      testsPass: !fs.readdirSync(`${root}/src`).some((f) => fs.readFileSync(`${root}/src/${f}`, 'utf8').includes('= true;')),
    };
  } finally {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
