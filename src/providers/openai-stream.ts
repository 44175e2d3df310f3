// One attempt's chat-completions event stream → kernel ModelEvents. Text and reasoning go
// out as they arrive; tool calls are assembled by index and released, with usage and the
// stop reason, only once a `finish_reason` proved the turn whole.
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelEvent, StopReason, Usage } from '../kernel/contracts/index.js';
import { StreamErrorEvent, TurnFailure, modelError } from './errors.js';
import { withCost } from './models.js';
import type { SseMessage } from './sse.js';
import type { TurnTranslator } from './turn-stream.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

/** Fields some OpenAI-compatible servers add: DeepSeek, vLLM (`reasoning_content`), OpenRouter, Ollama (`reasoning`). */
type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };
type CallDelta = NonNullable<Delta['tool_calls']>[number];

export class OpenAITurn implements TurnTranslator<SseMessage> {
  /** `data: [DONE]`: the end of the stream, after `finish_reason` and the usage chunk. */
  done = false;
  private readonly calls = new ToolCallAssembler();
  private finishReason: string | null = null;
  private usage: Usage | undefined;

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
    const chunk = JSON.parse(message.data) as ChatCompletionChunk & { error?: ConstructorParameters<typeof StreamErrorEvent>[0] };
    if (chunk.error) throw new StreamErrorEvent(chunk.error);
    return this.pushChunk(chunk);
  }

  private pushChunk(chunk: ChatCompletionChunk): ModelEvent | ModelEvent[] | undefined {
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return undefined;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const d = choice.delta as Delta | undefined;
    if (!d) return undefined;
    // A call's input growing: the last fragment's progress says it all.
    const progress = d.tool_calls?.map((call) => this.addCall(call)).findLast((p) => p !== undefined);
    const reasoning = d.reasoning_content ?? d.reasoning;
    // The usual chunk carries one thing; a few servers put reasoning and text in one.
    if (!reasoning && !d.refusal && !progress) return d.content ? { type: 'text_delta', text: d.content } : undefined;
    const out: ModelEvent[] = progress ? [progress] : [];
    if (reasoning) out.push({ type: 'reasoning_delta', text: reasoning });
    if (d.content) out.push({ type: 'text_delta', text: d.content });
    // A refusal is text the user should read: why the model declined.
    if (d.refusal) out.push({ type: 'text_delta', text: d.refusal });
    return out;
  }

  finish(): ModelEvent[] {
    if (this.finishReason === null)
      throw new TurnFailure(modelError('network', 'The response stream ended before the reply was complete.', true));
    const stop = mapFinish(this.finishReason);
    const intents = stop === 'refusal' ? [] : this.calls.intents({ requireClosed: false, truncated: stop === 'length' });
    const events: ModelEvent[] = [...intents];
    // Servers that ignore `include_usage` send none: better no usage event than a false zero.
    if (this.usage) events.push({ type: 'usage', usage: withCost(this.model, this.usage) });
    events.push({ type: 'final', stopReason: intents.length > 0 ? 'tool_intent' : stop === 'tool_intent' ? 'stop' : stop });
    return events;
  }

  private addCall(call: CallDelta): ModelEvent | undefined {
    const key = this.keyOf(call);
    const id = call.id || undefined;
    const name = call.function?.name || undefined;
    const started = this.calls.has(key) ? undefined : this.calls.start(key, id ?? this.newCallId(), name ?? '');
    if (!started) this.calls.amend(key, id, name);
    return this.calls.append(key, call.function?.arguments ?? '') ?? started;
  }

  /** Calls are keyed by `index`; a few servers omit it and send each call whole. */
  private keyOf(call: CallDelta): number {
    if (typeof call.index === 'number') return call.index;
    return 1_000_000 + this.calls.size;
  }
}

function toUsage(u: NonNullable<ChatCompletionChunk['usage']>): Usage {
  // prompt_tokens includes the cached part; the kernel counts the two apart.
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (u.prompt_tokens ?? 0) - cached),
    outputTokens: u.completion_tokens ?? 0,
    cacheReadTokens: cached,
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
