// Kernel ModelRequest → Anthropic Messages request: system text, tools, messages (tool
// results grouped into one user message, under Anthropic's own tool_use ids), images, each
// assistant turn's thinking blocks (when thinking is on), the thinking the model takes, and
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
import type { ImagePart, ModelMessage, ModelRequest, Reasoning, ToolSchema } from '../kernel/contracts/index.js';
import { imagesLeftOut, renderAttachment } from '../kernel/attachments.js';
import { type AnthropicThinking, MIN_THINKING_BUDGET } from './reasoning.js';

/** The format of the reasoning this API writes and takes back (kernel Reasoning.format). */
export const ANTHROPIC_REASONING = 'anthropic';

export interface AnthropicRequestOptions {
  model: string;
  maxOutputTokens: number;
  vision: boolean;
  promptCaching: boolean;
  /** Extended thinking as the model takes it (reasoning.ts); undefined: the field is left out. */
  thinking?: AnthropicThinking;
}

type Role = 'user' | 'assistant';

type Turn = { role: Role; content: ContentBlockParam[] };

export function toAnthropicParams(req: ModelRequest, o: AnthropicRequestOptions): MessageCreateParamsStreaming {
  const maxTokens = req.maxOutputTokens ?? o.maxOutputTokens;
  const thinking = thinkingFor(req, o.thinking, maxTokens);
  const { turns: messages, ends } = toMessages(req.messages, o, thinking !== undefined && thinking.type !== 'disabled');
  const tools = req.tools.map(toTool);
  const system: TextBlockParam[] = req.system ? [{ type: 'text', text: req.system }] : [];
  if (o.promptCaching) markCacheBreakpoints(messages, ends[(req.stablePrefix ?? 0) - 1]);
  const params: MessageCreateParamsStreaming = {
    model: o.model,
    max_tokens: maxTokens,
    messages: messages as MessageParam[],
    stream: true,
  };
  if (system.length > 0) params.system = system;
  if (tools.length > 0) params.tools = tools;
  if (thinking?.type === 'budget') params.thinking = { type: 'enabled', budget_tokens: Math.min(thinking.budgetTokens, maxTokens - 1) };
  else if (thinking?.type === 'adaptive') {
    params.thinking = { type: 'adaptive' };
    params.output_config = { effort: thinking.effort };
  } else if (thinking?.type === 'disabled') params.thinking = { type: 'disabled' };
  return params;
}

/**
 * The thinking this request can take. None for an episode note (a summary needs none), nor for a
 * budget the output limit cannot hold (the API's least is 1,024 tokens), nor when the tool calls
 * being answered lost their thinking blocks (see canThink).
 */
function thinkingFor(req: ModelRequest, thinking: AnthropicThinking, maxTokens: number): AnthropicThinking {
  if (!thinking || thinking.type === 'disabled') return thinking;
  if (req.purpose === 'note') return undefined;
  if (thinking.type === 'budget' && maxTokens <= MIN_THINKING_BUDGET) return undefined;
  return canThink(req.messages) ? thinking : undefined;
}

/** Where a kernel message's last block landed (consecutive user messages share a turn). */
type BlockRef = { turn: Turn; block: number } | undefined;

function toMessages(list: ModelMessage[], o: AnthropicRequestOptions, thinking: boolean): { turns: Turn[]; ends: BlockRef[] } {
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
    else if (m.role === 'assistant') push('assistant', assistantBlocks(m, thinking));
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

/**
 * The turn as the model wrote it: its thinking blocks first (with thinking on, unmodified and in
 * their order, as the API checks their signatures), then its text, then its calls.
 */
function assistantBlocks(m: Extract<ModelMessage, { role: 'assistant' }>, thinking: boolean): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = thinking ? thinkingBlocks(m.reasoning) : [];
  if (m.text !== '') blocks.push({ type: 'text', text: m.text });
  for (const call of m.toolCalls) blocks.push({ type: 'tool_use', id: call.providerRef, name: call.tool, input: call.input ?? {} });
  return blocks;
}

/** Anthropic's own reasoning, as blocks; another API's reasoning means nothing here and is left out. */
function thinkingBlocks(r: Reasoning | undefined): (ThinkingBlockParam | RedactedThinkingBlockParam)[] {
  if (r?.format !== ANTHROPIC_REASONING) return [];
  return r.blocks.map((b) =>
    b.type === 'text' ? { type: 'thinking', thinking: b.text, signature: b.signature ?? '' } : { type: 'redacted_thinking', data: b.data },
  );
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
 * With thinking on, the API needs the thinking blocks of the assistant turn whose tool calls are
 * being answered. A turn that has none (written with thinking off, or by another API) sends this
 * request without thinking rather than failing.
 */
function canThink(list: ModelMessage[]): boolean {
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i]!;
    if (m.role === 'user') return true;
    if (m.role === 'assistant') return m.toolCalls.length === 0 || thinkingBlocks(m.reasoning).length > 0;
  }
  return true;
}
