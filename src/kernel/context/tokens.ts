// The one token estimate of a request and its parts (characters / 4, see text.ts), used for the
// budget, the fold marks, the meter and the benchmark alike, so they never disagree.
import type { ModelMessage, ModelRequest, Reasoning, ToolSchema } from '../contracts/model.js';
import { estimateTokens } from '../text.js';
import { attachmentTokens } from '../attachments.js';

/** What an image costs, roughly, whatever its size. */
const IMAGE_TOKENS = 1600;

export function messageTokens(m: ModelMessage): number {
  if (m.role === 'tool_result') return estimateTokens(m.content) + 10 + (m.images?.length ?? 0) * IMAGE_TOKENS;
  if (m.role === 'user') return estimateTokens(m.text) + 4 + (m.images?.length ?? 0) * IMAGE_TOKENS + attachmentTokens(m.attachments);
  let n = estimateTokens(m.text) + 4;
  for (const c of m.toolCalls) n += estimateTokens(JSON.stringify(c.input) ?? '') + 10;
  if (m.reasoning) n += reasoningTokens(m.reasoning);
  return n;
}

/**
 * Reasoning sent back weighs what its text (or its encrypted data) does: it is part of the request.
 * A signature is not: the API checks it and counts no tokens for it.
 */
function reasoningTokens(r: Reasoning): number {
  let n = 0;
  for (const b of r.blocks) n += estimateTokens(b.type === 'text' ? b.text : b.data);
  return n;
}

export function messagesTokens(list: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of list) n += messageTokens(m);
  return n;
}

/** The system text and the tool list: the part of every request that never changes in a task. */
export function fixedTokens(system: string, tools: readonly ToolSchema[]): number {
  return estimateTokens(system) + estimateTokens(JSON.stringify(tools));
}

export function requestTokens(r: ModelRequest): number {
  return fixedTokens(r.system, r.tools) + messagesTokens(r.messages);
}

/** A request's parts: system + tools, the folded notes and ledger, the goal and live history. */
export interface RequestBreakdown {
  systemTools: number;
  notes: number;
  history: number;
  outputReserve: number;
}

export function requestBreakdown(r: ModelRequest): RequestBreakdown {
  const prefix = r.stablePrefix ?? 0;
  // The first message is the goal (history); the rest of the stable prefix is notes and ledger.
  const notes = prefix > 1 ? messagesTokens(r.messages.slice(1, prefix)) : 0;
  return {
    systemTools: fixedTokens(r.system, r.tools),
    notes,
    history: messagesTokens(r.messages) - notes,
    outputReserve: r.maxOutputTokens ?? 0,
  };
}
