// Kernel ModelRequest → Anthropic Messages request: system text, tools, messages (tool
// results grouped into one user message, under Anthropic's own tool_use ids), images, and
// prompt-cache breakpoints so a long task reads most of each request from cache.
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  ThinkingBlockParam,
  RedactedThinkingBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ImagePart, ModelMessage, ModelRequest, ToolSchema } from '../kernel/contracts/index.js';
import { imagesLeftOut, renderAttachment } from '../kernel/attachments.js';

export type ThinkingParam = ThinkingBlockParam | RedactedThinkingBlockParam;

export interface AnthropicRequestOptions {
  model: string;
  maxOutputTokens: number;
  vision: boolean;
  promptCaching: boolean;
  /** Extended thinking; off unless asked for. */
  thinkingBudgetTokens?: number;
  /** Thinking blocks of an earlier turn, by its first tool_use id (the API wants them back). */
  thinkingFor?: (toolUseId: string) => ThinkingParam[] | undefined;
}

type Role = 'user' | 'assistant';

const MIN_THINKING_TOKENS = 1_024;
type Turn = { role: Role; content: ContentBlockParam[] };

export function toAnthropicParams(req: ModelRequest, o: AnthropicRequestOptions): MessageCreateParamsStreaming {
  const { turns: messages, ends } = toMessages(req.messages, o);
  const tools = req.tools.map(toTool);
  const system: TextBlockParam[] = req.system ? [{ type: 'text', text: req.system }] : [];
  if (o.promptCaching) markCacheBreakpoints(messages, ends[(req.stablePrefix ?? 0) - 1]);
  const maxTokens = req.maxOutputTokens ?? o.maxOutputTokens;
  const params: MessageCreateParamsStreaming = {
    model: o.model,
    max_tokens: maxTokens,
    messages: messages as MessageParam[],
    stream: true,
  };
  if (system.length > 0) params.system = system;
  if (tools.length > 0) params.tools = tools;
  // The API's smallest thinking budget is 1,024 tokens: a short request (an episode note) goes without.
  if (o.thinkingBudgetTokens && maxTokens > MIN_THINKING_TOKENS && canThink(req.messages, o)) {
    params.thinking = { type: 'enabled', budget_tokens: Math.min(o.thinkingBudgetTokens, maxTokens - 1) };
  }
  return params;
}

/** Where a kernel message's last block landed (consecutive user messages share a turn). */
type BlockRef = { turn: Turn; block: number } | undefined;

function toMessages(list: ModelMessage[], o: AnthropicRequestOptions): { turns: Turn[]; ends: BlockRef[] } {
  const turns: Turn[] = [];
  const ends: BlockRef[] = [];
  // Anthropic wants roles to alternate: consecutive tool results (and a user note after
  // them) travel together in one user message.
  const push = (role: Role, blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return void ends.push(undefined);
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
    const turn = turns[turns.length - 1]!;
    ends.push({ turn, block: turn.content.length - 1 });
  };
  for (const m of list) {
    if (m.role === 'user') push('user', userBlocks(m, o.vision));
    else if (m.role === 'assistant') push('assistant', assistantBlocks(m, o));
    else
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: m.providerRef,
          content: resultBlocks(m.content === '' ? '(no output)' : m.content, m.images, o.vision),
          ...(m.isError ? { is_error: true } : {}),
        },
      ]);
  }
  return { turns, ends };
}

/** A tool result's content: its text, then its images where the model accepts them (else a note). */
function resultBlocks(text: string, images: ImagePart[] | undefined, vision: boolean): string | (TextBlockParam | ImageBlockParam)[] {
  if (!images?.length) return text;
  if (!vision) return `${text}\n[${images.length} image(s) left out: this model does not accept images]`;
  return [
    { type: 'text', text },
    ...images.map((img): ImageBlockParam => ({ type: 'image', source: { type: 'base64', media_type: img.mediaType, data: img.data } })),
  ];
}

/** Attachments first (each its own delimited text block), then images, then the user's words. */
function userBlocks(m: Extract<ModelMessage, { role: 'user' }>, vision: boolean): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = (m.attachments ?? []).map((a) => ({ type: 'text', text: renderAttachment(a) }));
  const images = m.images ?? [];
  if (images.length && vision) {
    for (const img of images) blocks.push({ type: 'image', source: { type: 'base64', media_type: img.mediaType, data: img.data } });
  } else if (images.length) {
    blocks.push({ type: 'text', text: imagesLeftOut(images.length) });
  }
  // The API refuses empty text blocks.
  if (m.text !== '') blocks.push({ type: 'text', text: m.text });
  return blocks;
}

function assistantBlocks(m: Extract<ModelMessage, { role: 'assistant' }>, o: AnthropicRequestOptions): ContentBlockParam[] {
  const first = m.toolCalls[0];
  const thinking = first && o.thinkingBudgetTokens ? (o.thinkingFor?.(first.providerRef) ?? []) : [];
  const blocks: ContentBlockParam[] = [...thinking];
  if (m.text !== '') blocks.push({ type: 'text', text: m.text });
  for (const call of m.toolCalls) blocks.push({ type: 'tool_use', id: call.providerRef, name: call.tool, input: call.input ?? {} });
  return blocks;
}

function toTool(t: ToolSchema): Tool {
  // `$schema` is noise to the API; the rest of the JSON Schema passes through as is.
  const { $schema: _ignored, ...schema } = t.inputSchema;
  return { name: t.name, description: t.description, input_schema: { type: 'object', ...schema } };
}

/**
 * Cache breakpoints where they pay (Anthropic caches tools → system → messages, up to each
 * breakpoint): the end of the stable prefix (system, tools, goal, folded notes and ledger —
 * unchanged until the next fold), the newest message (written now, read by the next request),
 * and the previous user turn (what the last request wrote: read now even when this turn added
 * more blocks than the API looks back over). None on the tool list or the system text: they
 * come before the stable prefix's breakpoint, which covers them.
 */
function markCacheBreakpoints(turns: Turn[], prefixEnd: BlockRef): void {
  const marked = new Set<Turn>();
  const newest = turns[turns.length - 1];
  if (newest) marked.add(newest);
  const previousUser = turns
    .slice(0, -1)
    .reverse()
    .find((t) => t.role === 'user');
  if (previousUser) marked.add(previousUser);
  for (const turn of marked) {
    const block = lastCacheable(turn.content);
    if (block) block.cache_control = { type: 'ephemeral' };
  }
  const block = prefixEnd?.turn.content[prefixEnd.block];
  if (block && (block.type === 'text' || block.type === 'image')) block.cache_control = { type: 'ephemeral' };
}

function lastCacheable(blocks: ContentBlockParam[]): { cache_control?: unknown } | undefined {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (b.type === 'text' || b.type === 'image' || b.type === 'tool_use' || b.type === 'tool_result') return b;
  }
  return undefined;
}

/**
 * With thinking on, the API needs the thinking blocks of the assistant turn whose tool
 * calls are being answered. If we no longer have them (e.g. after a reload), this request
 * goes without thinking rather than failing.
 */
function canThink(list: ModelMessage[], o: AnthropicRequestOptions): boolean {
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i]!;
    if (m.role === 'user') return true;
    if (m.role === 'assistant') {
      const first = m.toolCalls[0];
      return !first || (o.thinkingFor?.(first.providerRef)?.length ?? 0) > 0;
    }
  }
  return true;
}
