// Context projection: state → ModelRequest. The request is laid out so that its front never
// changes between folds, and a prompt cache can serve it:
//
//   system · tools · goal (the first user message, byte for byte) · [repo map + folded notes +
//   ledger] · live history (every step not folded, calls always with their results)
//
// `stablePrefix` counts the goal and the notes block. Folding (context/fold.ts) keeps the live
// history under the budget; only if one step alone is too big are tool outputs shortened, the
// oldest first, as a last resort. A pointer ("unchanged since step N") whose text the request
// does not show whole — folded away or shortened — is replaced by that text (context/pointers.ts).
import type { ConversationState, StateMessage } from './contracts/state.js';
import type { ModelMessage, ModelRequest } from './contracts/model.js';
import type { Observation, VisibilityContext } from './contracts/tool.js';
import type { Registry } from './registry.js';
import { toolSchema } from './registry.js';
import { shortenMiddle } from './text.js';
import { renderContextBlock, REPO_MAP_PENDING } from './context/context-block.js';
import { fixedTokens, messageTokens, messagesTokens } from './context/tokens.js';
import { resolvePointers } from './context/pointers.js';
import { MODE_NOTES } from './modes.js';

export interface ProjectionOptions {
  registry: Registry;
  visibility: VisibilityContext;
  system: string;
  budgetTokens: number;
  maxOutputTokens?: number;
}

/** How many characters a shortened tool output keeps. */
export const SHORTENED_OUTPUT_CHARS = 600;

export function projectContext(state: ConversationState, options: ProjectionOptions): ModelRequest {
  const tools = options.registry.visibleTools(options.visibility).map(toolSchema);
  const { prefix, live } = splitHistory(state);
  const room = options.budgetTokens - fixedTokens(options.system, tools) - messagesTokens(prefix);
  const request: ModelRequest = {
    system: options.system,
    messages: [...prefix, ...fitWithPointers(live, room, state)],
    tools,
    stablePrefix: prefix.length,
  };
  if (options.maxOutputTokens !== undefined) request.maxOutputTokens = options.maxOutputTokens;
  return request;
}

/** The goal and the notes block (the stable prefix), and the live history as the model sees it. */
function splitHistory(state: ConversationState): { prefix: ModelMessage[]; live: ModelMessage[] } {
  const goalAt = state.messages.findIndex((m) => m.type === 'user');
  if (goalAt < 0) return { prefix: [], live: toModelMessages(state, state.messages) };
  const prefix = toModelMessages(state, [state.messages[goalAt]!]);
  const { folds, foldedThrough, ledgerAtFold, repoMap, repoMapPending } = state.context;
  const block = renderContextBlock(folds, ledgerAtFold, repoMapPending ? REPO_MAP_PENDING : repoMap);
  if (block) prefix.push({ role: 'user', text: block });
  const rest = state.messages.filter((m, i) => i !== goalAt && m.seq > foldedThrough);
  return { prefix, live: toModelMessages(state, rest) };
}

/** Messages as the model sees them; a call without a result gets one. */
export function toModelMessages(state: ConversationState, messages: readonly StateMessage[] = state.messages): ModelMessage[] {
  const out: ModelMessage[] = [];
  const answered = new Set<string>();
  for (const m of messages) if (m.type === 'observation') answered.add(m.observation.intentId);
  for (const m of messages) {
    if (m.type === 'user') {
      out.push({
        role: 'user',
        // Sent in Plan or Ask: the model reads the mode with the message (the same bytes every turn).
        text: withHookContext(m.mode ? `${MODE_NOTES[m.mode]}\n\n${m.text}` : m.text, m.hookContext),
        ...(m.images ? { images: m.images } : {}),
        ...(m.attachments ? { attachments: m.attachments } : {}),
      });
    } else if (m.type === 'assistant') {
      const toolCalls = m.intentIds.map((id) => {
        const intent = state.intents[id]!;
        return { intentId: id, providerRef: intent.providerRef, tool: intent.tool, input: intent.input };
      });
      if (m.text === '' && toolCalls.length === 0) continue;
      // The turn's reasoning goes along: the adapter that wrote it decides whether its API gets it back.
      out.push(
        m.reasoningBlocks
          ? { role: 'assistant', text: m.text, toolCalls, reasoning: m.reasoningBlocks }
          : { role: 'assistant', text: m.text, toolCalls },
      );
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

/** What the task's hooks added to a message, after it, marked as theirs. */
function withHookContext(text: string, context: string | undefined): string {
  return context ? `${text}\n\n[Added by the task's hooks]\n${context}` : text;
}

function resultMessage(o: Observation, providerRef: string, tool: string): ModelMessage {
  const content = o.ok ? o.content : `Error (${o.code ?? 'execution_failed'}): ${o.content}`;
  const message: ModelMessage = { role: 'tool_result', intentId: o.intentId, providerRef, tool, content, isError: !o.ok };
  return o.images?.length ? { ...message, images: o.images } : message;
}

function unansweredResult(intentId: string, providerRef: string, tool: string): ModelMessage {
  const content = 'Error (cancelled): this call never ran (the run was interrupted).';
  return { role: 'tool_result', intentId, providerRef, tool, content, isError: true };
}

/** How many times pointers are resolved and the history fitted again (each pass expands at least one). */
const POINTER_PASSES = 4;

/** The live history within the budget, every pointer in it standing beside its text or replaced by it. */
function fitWithPointers(live: ModelMessage[], room: number, state: ConversationState): ModelMessage[] {
  let fitted = fitToBudget(live, room);
  for (let pass = 0; pass < POINTER_PASSES; pass++) {
    const resolved = resolvePointers(fitted, state.messages);
    if (!resolved.changed) return fitted;
    fitted = fitToBudget(resolved.messages, room);
  }
  return resolvePointers(fitted, state.messages).messages;
}

/**
 * The last resort when the live history alone is over budget (one huge step): tool outputs are
 * shortened, the oldest first. Nothing is dropped and no other message changes.
 */
export function fitToBudget(input: ModelMessage[], budget: number): ModelMessage[] {
  const messages = input.slice();
  let total = messagesTokens(messages);
  for (let i = 0; i < messages.length && total > budget; i++) {
    const m = messages[i]!;
    if (m.role !== 'tool_result' || m.content.length <= SHORTENED_OUTPUT_CHARS) continue;
    const shortened = { ...m, content: shortenMiddle(m.content, SHORTENED_OUTPUT_CHARS) };
    total -= messageTokens(m) - messageTokens(shortened);
    messages[i] = shortened;
  }
  return messages;
}
