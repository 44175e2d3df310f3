// Fixtures for sub-agent tests: a provider whose turn depends on which agent asks (the first
// user message of the request names the agent), turns that wait on the test, and a runtime
// with the delegate tools next to the kernel's note tools.
import type { ModelEvent, ModelRequest, RuntimeEvent, RuntimeOptions, ToolDefinition } from '../../../src/kernel/index.js';
import type { Script, ScriptedTurn } from '../../../src/providers/scripted.js';
import { delegateTool } from '../../../src/tools/delegate/delegate.js';
import { delegatePlanTool } from '../../../src/tools/delegate/delegate-plan.js';
import { makeRuntime, writeNote } from './helpers.js';

/** The agent a request comes from: the first word of its first user message. */
function agentOf(request: ModelRequest): string {
  const first = request.messages.find((m) => m.role === 'user');
  return first?.role === 'user' ? (first.text.split(/\s/)[0] ?? '') : '';
}

/** Each agent's turns, by the number of assistant turns it has had so far. */
export function routed(routes: Record<string, ScriptedTurn[]>): Script {
  return (request) => {
    const turns = routes[agentOf(request)];
    if (!turns) throw new Error(`no script for agent "${agentOf(request)}"`);
    return turns[request.messages.filter((m) => m.role === 'assistant').length]!;
  };
}

/** A turn that yields to the event loop before each event, so concurrent turns interleave. */
export function yielding(events: ModelEvent[]): ScriptedTurn {
  return (async function* () {
    for (const e of events) {
      await new Promise((r) => setImmediate(r));
      yield e;
    }
  })();
}

/** A turn that streams nothing until `until` settles (the test cancels first; the loop then sees the abort). */
export function hanging(started: () => void, until: Promise<void>): ScriptedTurn {
  return (async function* () {
    started();
    await until;
    yield { type: 'final', stopReason: 'stop' } as ModelEvent;
  })();
}

export function calls(...list: { tool: string; input: unknown }[]): ModelEvent[] {
  const events: ModelEvent[] = list.map((c, i) => ({ type: 'tool_intent', providerRef: `c${i}`, tool: c.tool, input: c.input }));
  events.push({ type: 'final', stopReason: 'tool_intent' });
  return events;
}

/** write_note that reports its edit as a fact, as Keel's own file tools do. */
const editNote: ToolDefinition<{ path: string; text: string }> = {
  ...writeNote,
  name: 'edit_note',
  async execute(input, ctx) {
    const result = await writeNote.execute(input, ctx);
    return { ...result, facts: { edit: { path: input.path, hash: 'h', added: 1, removed: 0 } } };
  },
};

export function makeFrameRuntime(script: Script, extra: Partial<RuntimeOptions> = {}) {
  const made = makeRuntime(script, extra);
  made.registry.addTool(editNote).addTool(delegateTool).addTool(delegatePlanTool);
  return made;
}

export function framed(events: readonly RuntimeEvent[], frame: string): RuntimeEvent[] {
  return events.filter((e) => e.frame === frame);
}
