// Turning a model's tool call into a kernel intent: the kernel's own id, validated input,
// and — when the call is bad — the problem the model will be told about (a repair).
import type { ModelEvent } from './contracts/model.js';
import type { ToolIntent } from './contracts/tool.js';
import type { LoopHost } from './loop-host.js';
import { gateRefusal, isOffered, type GateRefusal } from './skill-gate.js';

export interface Proposal {
  intent: ToolIntent;
  /** Set when the call cannot run: unknown tool or invalid input. */
  problem?: string;
  /** Set when the mode, the agent or a skill does not allow the tool: how the refusal is coded and told. */
  refusal?: Pick<GateRefusal, 'code' | 'summary'>;
}

type ToolCall = Extract<ModelEvent, { type: 'tool_intent' }>;

export function proposeIntent(h: LoopHost, call: ToolCall): Proposal {
  const base = { id: h.newId(), tool: call.tool, providerRef: call.providerRef, status: 'proposed' as const };
  const def = h.registry.tool(call.tool);
  const gated = def && gateRefusal(def, h.visibility, h.state());
  if (def && gated && (!def.isVisible || def.isVisible(h.visibility))) {
    // Described as any call is (the file it would write), so the card says what was not done.
    const parsed = def.input.safeParse(call.input);
    const summary = parsed.success ? safely(() => def.summarize(parsed.data), call.tool) : call.tool;
    const paths = parsed.success ? safely(() => def.paths?.(parsed.data) ?? [], []) : [];
    const intent: ToolIntent = { ...base, input: call.input ?? null, summary, risk: def.risk, paths };
    h.emit({ type: 'intent_proposed', intent });
    return { intent, problem: `The call to ${call.tool} did not run: ${gated.reason}`, refusal: gated };
  }
  if (!def || !isOffered(def, h.visibility)) {
    const names = h.registry
      .visibleTools(h.visibility)
      .map((t) => t.name)
      .join(', ');
    const intent: ToolIntent = { ...base, input: call.input ?? null, summary: call.tool, risk: 'read', paths: [] };
    h.emit({ type: 'intent_proposed', intent });
    return { intent, problem: `There is no tool named "${call.tool}". Available tools: ${names}.` };
  }
  const refused = safely(() => def.refuseInput?.(call.input, h.secrets), 'Keel could not check this input; it was not recorded.');
  if (refused !== undefined) {
    // Logged without its input: what was refused (a secret) must not outlive the refusal.
    const intent: ToolIntent = { ...base, input: null, summary: `${call.tool} (refused)`, risk: def.risk, paths: [] };
    h.emit({ type: 'intent_proposed', intent });
    return { intent, problem: refused };
  }
  if (call.inputError !== undefined) {
    const intent: ToolIntent = { ...base, input: null, summary: call.tool, risk: def.risk, paths: [] };
    h.emit({ type: 'intent_proposed', intent });
    return { intent, problem: `The call to ${call.tool} did not run: ${call.inputError}` };
  }
  const parsed = def.input.safeParse(call.input);
  if (!parsed.success) {
    const intent: ToolIntent = { ...base, input: call.input ?? null, summary: call.tool, risk: def.risk, paths: [] };
    h.emit({ type: 'intent_proposed', intent });
    return { intent, problem: `Invalid input for ${call.tool}: ${describeIssues(parsed.error.issues)}. Fix the input and call it again.` };
  }
  const intent: ToolIntent = {
    ...base,
    input: parsed.data,
    summary: safely(() => def.summarize(parsed.data), call.tool),
    risk: def.risk,
    paths: safely(() => def.paths?.(parsed.data) ?? [], []),
  };
  h.emit({ type: 'intent_proposed', intent });
  return { intent };
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

function safely<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
