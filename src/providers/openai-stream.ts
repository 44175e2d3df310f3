// One attempt's chat-completions event stream → kernel ModelEvents. Text and reasoning go
// out as they arrive; tool calls are assembled by index and released, with the turn's
// reasoning, usage and the stop reason, only once a `finish_reason` proved the turn whole.
//
// What the OpenAI-compatible servers send beside OpenAI's own fields: reasoning as
// `reasoning_content` (DeepSeek, Kimi, Qwen, vLLM) or `reasoning` (OpenRouter, Ollama, Groq),
// `content` as an array of text and thinking parts (Mistral), `citations` (Perplexity), and usage
// with reasoning tokens counted apart (xAI) or cache hits in their own field (DeepSeek, Kimi).
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelEvent, StopReason, Usage } from '../kernel/contracts/index.js';
import { StreamErrorEvent, TurnFailure, modelError } from './errors.js';
import { withCost } from './models.js';
import type { SseMessage } from './sse.js';
import type { TurnTranslator } from './turn-stream.js';
import { ToolCallAssembler } from './tool-call-assembler.js';
import { citationLinks, type Citations } from './citations.js';
import { contentParts, REASONING_FIELDS, type ReasoningField } from './chat-content.js';

type Delta = Omit<ChatCompletionChunk.Choice.Delta, 'content'> & { content?: unknown } & Partial<Record<ReasoningField, unknown>>;
type CallDelta = NonNullable<Delta['tool_calls']>[number];
/** `x_groq.usage`: where Groq reported usage before it took `include_usage`. */
type Chunk = Omit<ChatCompletionChunk, 'usage'> & { usage?: WireUsage | null; error?: unknown; x_groq?: { usage?: WireUsage } } & Citations;

const FILTERED = '\n\nThe reply was stopped by the server’s content filter (finish_reason content_filter).';

const SPLICED = 'The model server’s stream was malformed: a second reply began inside the first, so neither was kept.';

/** Usage as the servers report it: OpenAI's fields, and the ones others add beside them. */
interface WireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's cache hits (its prompt_tokens counts them too). */
  prompt_cache_hit_tokens?: number | null;
  /** Moonshot (Kimi). */
  cached_tokens?: number | null;
}

export class OpenAITurn implements TurnTranslator<SseMessage> {
  /** `data: [DONE]`: the end of the stream, after `finish_reason` and the usage chunk. */
  done = false;
  private readonly calls = new ToolCallAssembler();
  private finishReason: string | null = null;
  private usage: Usage | undefined;
  private readonly reasoning: string[] = [];
  private reasoningFormat: string | undefined;
  private citations: Citations = {};
  private id: string | undefined;
  private refused = false;

  constructor(
    private readonly model: string,
    private readonly newCallId: () => string,
  ) {}

  get complete(): boolean {
    return this.finishReason !== null;
  }

  push(message: SseMessage): ModelEvent | ModelEvent[] | undefined {
    if (message.data.startsWith('[DONE]')) {
      this.done = true;
      return undefined;
    }
    // A SyntaxError here is a garbled stream: the adapter retries the turn.
    const chunk = JSON.parse(message.data) as Chunk;
    if (chunk.error) throw new StreamErrorEvent(chunk.error as ConstructorParameters<typeof StreamErrorEvent>[0]);
    return this.pushChunk(chunk);
  }

  private pushChunk(chunk: Chunk): ModelEvent | ModelEvent[] | undefined {
    const usage = chunk.usage ?? chunk.x_groq?.usage;
    if (usage) this.usage = toUsage(usage);
    if (chunk.citations || chunk.search_results) this.citations = chunk;
    const choice = chunk.choices?.[0];
    if (!choice) return undefined;
    const d = choice.delta as Delta | undefined;
    this.checkSplice(chunk.id, d);
    // After the finish only usage may follow: a reply's text never outlives its finish_reason.
    if (this.finishReason !== null) return undefined;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    if (!d) return undefined;
    // A call's input growing: the last fragment's progress says it all.
    const progress = d.tool_calls?.map((call) => this.addCall(call)).findLast((p) => p !== undefined);
    // The usual chunk carries one piece of text and nothing else: one event, nothing allocated.
    if (typeof d.content === 'string' && !d.refusal && !hasReasoning(d) && !progress)
      return d.content ? { type: 'text_delta', text: d.content } : undefined;
    const out: ModelEvent[] = progress ? [progress] : [];
    for (const field of REASONING_FIELDS) {
      const text = d[field];
      if (typeof text === 'string' && text !== '') this.addReasoning(out, text, field);
    }
    if (typeof d.content === 'string') {
      if (d.content) out.push({ type: 'text_delta', text: d.content });
    } else {
      for (const part of contentParts(d.content)) {
        if (part.kind === 'text') out.push({ type: 'text_delta', text: part.text });
        else this.addReasoning(out, part.text, 'thinking_parts');
      }
    }
    // A refusal is text the user should read: why the model declined.
    if (typeof d.refusal === 'string' && d.refusal) {
      this.refused = true;
      out.push({ type: 'text_delta', text: d.refusal });
    }
    return out;
  }

  finish(): ModelEvent[] {
    if (this.finishReason === null)
      throw new TurnFailure(modelError('network', 'The response stream ended before the reply was complete.', true));
    const stop = mapFinish(this.finishReason);
    const intents = stop === 'refusal' ? [] : this.calls.intents({ requireClosed: false, truncated: stop === 'length' });
    const events: ModelEvent[] = [];
    // A content filter that stopped the reply without a word: the user is told, not shown nothing.
    if (stop === 'refusal' && !this.refused) events.push({ type: 'text_delta', text: FILTERED });
    const links = citationLinks(this.citations);
    if (links) events.push({ type: 'text_delta', text: links });
    if (this.reasoningFormat)
      events.push({
        type: 'reasoning',
        reasoning: { format: this.reasoningFormat, blocks: [{ type: 'text', text: this.reasoning.join('') }] },
      });
    events.push(...intents);
    // Servers that ignore `include_usage` send none: better no usage event than a false zero.
    if (this.usage) events.push({ type: 'usage', usage: withCost(this.model, this.usage) });
    events.push({ type: 'final', stopReason: intents.length > 0 ? 'tool_intent' : stop === 'tool_intent' ? 'stop' : stop });
    return events;
  }

  /** A second completion's first chunk (its role, under another id) spliced into this one's stream. */
  private checkSplice(id: string | undefined, d: Delta | undefined): void {
    if (!id) return;
    if (this.id && id !== this.id && d?.role === 'assistant') throw new TurnFailure(modelError('unknown', SPLICED, false));
    this.id ??= id;
  }

  /** Reasoning streams out as it comes and is kept, in the form it came in, to be sent back. */
  private addReasoning(out: ModelEvent[], text: string, format: string): void {
    out.push({ type: 'reasoning_delta', text });
    this.reasoningFormat ??= format;
    if (format === this.reasoningFormat) this.reasoning.push(text);
  }

  private addCall(call: CallDelta): ModelEvent | undefined {
    const key = this.keyOf(call);
    const id = call.id || undefined;
    const name = call.function?.name || undefined;
    const started = this.calls.has(key) ? undefined : this.calls.start(key, id ?? this.newCallId(), name ?? '');
    if (!started) this.calls.amend(key, id, name);
    const args = call.function?.arguments;
    // Arguments are JSON text; a server that sends the object itself gets it written as JSON.
    return this.calls.append(key, typeof args === 'string' ? args : args == null ? '' : JSON.stringify(args)) ?? started;
  }

  /** Calls are keyed by `index`; a few servers omit it and send each call whole. */
  private keyOf(call: CallDelta): number {
    if (typeof call.index === 'number') return call.index;
    return 1_000_000 + this.calls.size;
  }
}

function hasReasoning(d: Delta): boolean {
  return (typeof d.reasoning_content === 'string' && d.reasoning_content !== '') || (typeof d.reasoning === 'string' && d.reasoning !== '');
}

const count = (n: number | null | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);

function toUsage(u: WireUsage): Usage {
  // prompt_tokens includes the cached part; the kernel counts the two apart.
  const cached = count(u.prompt_tokens_details?.cached_tokens) || count(u.prompt_cache_hit_tokens) || count(u.cached_tokens);
  const prompt = count(u.prompt_tokens);
  const completion = count(u.completion_tokens);
  const reasoning = count(u.completion_tokens_details?.reasoning_tokens);
  // OpenAI counts reasoning inside completion_tokens; xAI reports it apart (the total says which).
  const apart = reasoning > completion || (u.total_tokens != null && u.total_tokens === prompt + completion + reasoning && reasoning > 0);
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: completion + (apart ? reasoning : 0),
    cacheReadTokens: Math.min(cached, prompt || cached),
    cacheWriteTokens: 0,
  };
}

function mapFinish(reason: string): StopReason {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_intent';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'refusal';
    default:
      return 'stop';
  }
}
