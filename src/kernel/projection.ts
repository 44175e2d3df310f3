// Context projection: state → ModelRequest, within a token budget.
//
// The rule, in order, applied only while the request is over budget:
//   1. Shorten old tool outputs (oldest first; the latest step's outputs are kept whole).
//   2. Drop the oldest steps — an assistant turn together with all its tool results, so a
//      call is never separated from its result. User messages are never dropped.
//   3. Shorten the latest step's tool outputs too.
// If it still does not fit, the request goes as it is and the provider reports the overflow.
import type { ConversationState } from './contracts/state.js';
import type { ModelMessage, ModelRequest } from './contracts/model.js';
import type { Observation, VisibilityContext } from './contracts/tool.js';
import type { Registry } from './registry.js';
import { toolSchema } from './registry.js';
import { estimateTokens, shortenMiddle } from './text.js';

export interface ProjectionOptions {
  registry: Registry;
  visibility: VisibilityContext;
  system: string;
  budgetTokens: number;
  maxOutputTokens?: number;
}

/** How many characters a shortened old tool output keeps. */
export const SHORTENED_OUTPUT_CHARS = 600;
const DROPPED_NOTE = '[Earlier steps were left out to fit the context window.]';

export function projectContext(state: ConversationState, options: ProjectionOptions): ModelRequest {
  const tools = options.registry.visibleTools(options.visibility).map(toolSchema);
  const fixed = estimateTokens(options.system) + estimateTokens(JSON.stringify(tools));
  const messages = fitToBudget(toModelMessages(state), options.budgetTokens - fixed);
  const request: ModelRequest = { system: options.system, messages, tools };
  if (options.maxOutputTokens !== undefined) request.maxOutputTokens = options.maxOutputTokens;
  return request;
}

/** Every committed message as the model sees it; a call without a result gets one. */
function toModelMessages(state: ConversationState): ModelMessage[] {
  const out: ModelMessage[] = [];
  const answered = new Set<string>();
  for (const m of state.messages) if (m.type === 'observation') answered.add(m.observation.intentId);
  for (const m of state.messages) {
    if (m.type === 'user') {
      out.push(m.images ? { role: 'user', text: m.text, images: m.images } : { role: 'user', text: m.text });
    } else if (m.type === 'assistant') {
      const toolCalls = m.intentIds.map((id) => {
        const intent = state.intents[id]!;
        return { intentId: id, providerRef: intent.providerRef, tool: intent.tool, input: intent.input };
      });
      if (m.text === '' && toolCalls.length === 0) continue;
      out.push({ role: 'assistant', text: m.text, toolCalls });
      for (const call of toolCalls) {
        if (!answered.has(call.intentId)) out.push(unansweredResult(call.intentId, call.providerRef, call.tool));
      }
    } else {
      const intent = state.intents[m.observation.intentId];
      if (!intent) continue;
      out.push(resultMessage(m.observation, intent.providerRef, intent.tool));
    }
  }
  return out;
}

function resultMessage(o: Observation, providerRef: string, tool: string): ModelMessage {
  const content = o.ok ? o.content : `Error (${o.code ?? 'execution_failed'}): ${o.content}`;
  return { role: 'tool_result', intentId: o.intentId, providerRef, tool, content, isError: !o.ok };
}

function unansweredResult(intentId: string, providerRef: string, tool: string): ModelMessage {
  const content = 'Error (cancelled): this call never ran (the run was interrupted).';
  return { role: 'tool_result', intentId, providerRef, tool, content, isError: true };
}

function tokensOf(m: ModelMessage): number {
  if (m.role === 'tool_result') return estimateTokens(m.content) + 10;
  if (m.role === 'user') return estimateTokens(m.text) + 4 + (m.images?.length ?? 0) * 1600;
  let n = estimateTokens(m.text) + 4;
  for (const c of m.toolCalls) n += estimateTokens(JSON.stringify(c.input) ?? '') + 10;
  return n;
}

/** Index where the latest step begins: the last assistant message. */
function latestStepStart(messages: ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'assistant') return i;
  return messages.length;
}

export function fitToBudget(input: ModelMessage[], budget: number): ModelMessage[] {
  let messages = input.slice();
  let total = messages.reduce((n, m) => n + tokensOf(m), 0);
  if (total <= budget) return messages;
  const latest = latestStepStart(messages);
  // 1. Shorten old tool outputs, oldest first.
  for (let i = 0; i < latest && total > budget; i++) total -= shortenResult(messages, i);
  // 2. Drop the oldest whole steps (assistant + its results), never a user message.
  if (total > budget) ({ messages, total } = dropOldSteps(messages, total, budget));
  // 3. Shorten the latest step's outputs as a last resort.
  for (let i = 0; i < messages.length && total > budget; i++) total -= shortenResult(messages, i);
  return messages;
}

function shortenResult(messages: ModelMessage[], i: number): number {
  const m = messages[i]!;
  if (m.role !== 'tool_result' || m.content.length <= SHORTENED_OUTPUT_CHARS) return 0;
  const before = tokensOf(m);
  const shortened = { ...m, content: shortenMiddle(m.content, SHORTENED_OUTPUT_CHARS) };
  messages[i] = shortened;
  return before - tokensOf(shortened);
}

function dropOldSteps(messages: ModelMessage[], total: number, budget: number) {
  const latest = latestStepStart(messages);
  const kept: ModelMessage[] = [];
  let dropped = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const droppable = i < latest && m.role !== 'user' && total > budget;
    if (droppable && m.role === 'assistant') {
      // Drop the assistant turn and every result that answers it, together.
      total -= tokensOf(m);
      while (i + 1 < latest && messages[i + 1]!.role === 'tool_result') total -= tokensOf(messages[++i]!);
      dropped = true;
      continue;
    }
    kept.push(m);
  }
  if (dropped) {
    const first = kept.findIndex((m) => m.role === 'user');
    if (first >= 0) {
      const u = kept[first] as Extract<ModelMessage, { role: 'user' }>;
      kept[first] = { ...u, text: `${u.text}\n\n${DROPPED_NOTE}` };
      total += estimateTokens(DROPPED_NOTE);
    }
  }
  return { messages: kept, total };
}
