// A recorded task with sub-agents for the replay corpus: the real runtime, tools and policy of a
// headless run over the failing-tests example, with a scripted model whose turns depend on
// which agent asks (the first word of the agent's brief). The task delegates one read-only
// child that reads src/price.js, then runs a plan of two independent read-only tasks (side by
// side). Written to test/replay/ by scripts/record-replay-subagents.ts; the replay tests use
// the same script to record a fresh log.
import type { ModelEvent, ModelRequest, RuntimeEvent } from '../../src/kernel/index.js';
import { Runtime } from '../../src/kernel/index.js';
import { composePolicy, composeRegistry } from '../../src/compose/index.js';
import { createNodeWorkspace } from '../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn, type ScriptedTurn } from '../../src/providers/scripted.js';
import { searchByWalking } from '../../src/tools/index.js';

const SUBAGENTS_TASK = 'ROOT find out what the price code does';

const PLAN = {
  goal: 'read the tests and the readme',
  tasks: [
    { id: 'tests', task: 'TESTS list the test folder' },
    { id: 'readme', task: 'README read README.md' },
  ],
};

const TURNS: Record<string, ScriptedTurn[]> = {
  ROOT: [
    toolTurn('delegate', { task: 'READER read src/price.js and say what it exports' }),
    toolTurn('delegate_plan', PLAN),
    textTurn('price.js computes discounts; its tests and readme are summarised above.'),
  ],
  READER: [toolTurn('read_file', { path: 'src/price.js' }), textTurn('src/price.js exports the discount function.')],
  TESTS: [toolTurn('list_files', { path: 'test' }), textTurn('test/ holds the price tests.')],
  README: [toolTurn('read_file', { path: 'README.md' }), textTurn('The readme describes the example.')],
};

/** Which agent asks: the first word of its first user message (its brief). */
function agentOf(request: ModelRequest): string {
  const first = request.messages.find((m) => m.role === 'user');
  return first?.role === 'user' ? (first.text.split(/\s/)[0] ?? '') : '';
}

/** Yields to the event loop between events, so the plan's two children interleave in the log. */
async function* interleaving(turn: ScriptedTurn): AsyncIterable<ModelEvent> {
  for await (const e of turn as Iterable<ModelEvent>) {
    await new Promise((r) => setImmediate(r));
    yield e;
  }
}

/** Runs the task headless (nothing auto-approved, as `keel run` without --approve) in `root`. */
export async function recordSubagentsTask(root: string): Promise<readonly RuntimeEvent[]> {
  const workspace = await createNodeWorkspace(root, { fallbackSearch: searchByWalking });
  const provider = new ScriptedProvider((request) => {
    const turns = TURNS[agentOf(request)];
    if (!turns) throw new Error(`no script for agent "${agentOf(request)}"`);
    return interleaving(turns[request.messages.filter((m) => m.role === 'assistant').length]!);
  });
  const policy = composePolicy({ autoApprove: [], approveUnclassified: false, commandsAllow: [], commandsDeny: [] }, true);
  const runtime = new Runtime({ provider, registry: composeRegistry(workspace), workspace, policy });
  for await (const out of runtime.send(SUBAGENTS_TASK))
    if (out.kind === 'event' && out.event.type === 'approval_requested') runtime.reject(out.event.intentId, 'headless');
  return runtime.getEvents();
}
