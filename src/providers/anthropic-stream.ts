// One attempt's Anthropic server-sent events → kernel ModelEvents. Text and thinking go out
// as they arrive; tool calls, usage and the stop reason are held until `message_stop`, the
// only proof that the turn is whole.
import type { ContentBlock, RawMessageStreamEvent, StopReason as AnthropicStop } from '@anthropic-ai/sdk/resources/messages';
import type { ModelEvent, StopReason, Usage } from '../kernel/contracts/index.js';
import { StreamErrorEvent, TurnFailure, modelError } from './errors.js';
import type { SseMessage } from './sse.js';
import { withCost } from './models.js';
import type { TurnTranslator } from './turn-stream.js';
import type { ThinkingParam } from './anthropic-request.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

type ThinkingDraft = { type: 'thinking'; parts: string[]; signature: string } | { type: 'redacted_thinking'; data: string };

type UsageFields = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
};

/** Told the thinking blocks of a turn that called tools, so the next request can return them. */
export type ThinkingSink = (firstToolUseId: string, blocks: ThinkingParam[]) => void;

export class AnthropicTurn implements TurnTranslator<SseMessage> {
  done = false;
  private readonly calls = new ToolCallAssembler();
  private readonly thinking = new Map<number, ThinkingDraft>();
  private stopReason: AnthropicStop | null = null;
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(
    private readonly model: string,
    private readonly onThinking?: ThinkingSink,
  ) {}

  get complete(): boolean {
    return this.done;
  }

  push(message: SseMessage): ModelEvent | undefined {
    // Every Messages event is named; pings and unnamed events carry nothing for us.
    if (message.event === undefined || message.event === 'ping' || message.data === '') return undefined;
    if (message.event === 'error') throw streamError(message.data);
    // A SyntaxError here is a garbled stream: the adapter retries the turn.
    return this.pushEvent(JSON.parse(message.data) as RawMessageStreamEvent);
  }

  private pushEvent(ev: RawMessageStreamEvent): ModelEvent | undefined {
    switch (ev.type) {
      case 'content_block_delta': {
        const d = ev.delta;
        if (d.type === 'text_delta') return { type: 'text_delta', text: d.text };
        if (d.type === 'input_json_delta') return this.calls.append(ev.index, d.partial_json);
        if (d.type === 'thinking_delta') return this.addThinking(ev.index, d.thinking);
        else if (d.type === 'signature_delta') this.addSignature(ev.index, d.signature);
        return undefined;
      }
      case 'content_block_start':
        return this.startBlock(ev.index, ev.content_block);
      case 'content_block_stop':
        this.calls.close(ev.index);
        return undefined;
      case 'message_start':
        this.addUsage(ev.message.usage);
        return undefined;
      case 'message_delta':
        this.stopReason = ev.delta.stop_reason ?? this.stopReason;
        this.addUsage(ev.usage);
        return undefined;
      case 'message_stop':
        this.done = true;
        return undefined;
    }
  }

  finish(): ModelEvent[] {
    if (!this.done) throw new TurnFailure(modelError('network', 'The response stream ended before the message was complete.', true));
    const stop = mapStop(this.stopReason);
    // A refused turn's calls are not proposed: the model withdrew the answer they belong to.
    const intents = stop === 'refusal' ? [] : this.calls.intents({ requireClosed: true, truncated: stop === 'length' });
    if (intents.length > 0) this.rememberThinking(intents[0] as Extract<ModelEvent, { type: 'tool_intent' }>);
    return [
      ...intents,
      { type: 'usage', usage: withCost(this.model, this.usage) },
      { type: 'final', stopReason: intents.length > 0 ? 'tool_intent' : stop === 'tool_intent' ? 'stop' : stop },
    ];
  }

  private startBlock(index: number, block: ContentBlock): ModelEvent | undefined {
    if (block.type === 'text') {
      if (block.text) return { type: 'text_delta', text: block.text };
    } else if (block.type === 'tool_use') {
      return this.calls.start(index, block.id, block.name);
    } else if (block.type === 'thinking') {
      this.thinking.set(index, { type: 'thinking', parts: [], signature: block.signature ?? '' });
      if (block.thinking) return this.addThinking(index, block.thinking);
    } else if (block.type === 'redacted_thinking') {
      this.thinking.set(index, { type: 'redacted_thinking', data: block.data });
    }
    return undefined;
  }

  private addThinking(index: number, text: string): ModelEvent {
    const draft = this.thinking.get(index);
    if (draft?.type === 'thinking') draft.parts.push(text);
    return { type: 'reasoning_delta', text };
  }

  private addSignature(index: number, signature: string): void {
    const draft = this.thinking.get(index);
    if (draft?.type === 'thinking') draft.signature += signature;
  }

  /** Fields are cumulative: the latest non-null value of each wins. */
  private addUsage(u: UsageFields | null | undefined): void {
    if (!u) return;
    if (u.input_tokens != null) this.usage.inputTokens = u.input_tokens;
    if (u.output_tokens != null) this.usage.outputTokens = u.output_tokens;
    if (u.cache_read_input_tokens != null) this.usage.cacheReadTokens = u.cache_read_input_tokens;
    if (u.cache_creation_input_tokens != null) this.usage.cacheWriteTokens = u.cache_creation_input_tokens;
  }

  private rememberThinking(first: Extract<ModelEvent, { type: 'tool_intent' }>): void {
    if (!this.onThinking || this.thinking.size === 0) return;
    const blocks = [...this.thinking.entries()]
      .sort(([a], [b]) => a - b)
      .map(
        ([, d]): ThinkingParam =>
          d.type === 'thinking'
            ? { type: 'thinking', thinking: d.parts.join(''), signature: d.signature }
            : { type: 'redacted_thinking', data: d.data },
      );
    this.onThinking(first.providerRef, blocks);
  }
}

/** `event: error` mid-stream, e.g. `{"type":"error","error":{"type":"overloaded_error",…}}`. */
function streamError(data: string): StreamErrorEvent {
  let body: { error?: { type?: string; message?: string } } | undefined;
  try {
    body = JSON.parse(data) as typeof body;
  } catch {
    body = undefined;
  }
  return new StreamErrorEvent({ type: body?.error?.type, message: body?.error?.message ?? data });
}

function mapStop(reason: AnthropicStop | null): StopReason {
  switch (reason) {
    case 'tool_use':
      return 'tool_intent';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'refusal';
    default:
      // end_turn, stop_sequence, pause_turn, and anything newer: the model is done talking.
      return 'stop';
  }
}
