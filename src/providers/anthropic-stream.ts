// One attempt's Anthropic server-sent events → kernel ModelEvents. Text and thinking go out
// as they arrive; tool calls, the turn's reasoning (thinking blocks with their signatures,
// redacted blocks), usage and the stop reason are held until `message_stop`, the only proof
// that the turn is whole. Blocks of the API's own server tools (web search and the like) are
// the API's business: they never become calls. A refusal's explanation is shown as text.
import type { ContentBlock, RawMessageStreamEvent, StopReason as AnthropicStop } from '@anthropic-ai/sdk/resources/messages';
import type { ModelEvent, ReasoningBlock, StopReason, Usage } from '../kernel/contracts/index.js';
import { StreamErrorEvent, TurnFailure, modelError } from './errors.js';
import type { SseMessage } from './sse.js';
import { withCost } from './models.js';
import type { TurnTranslator } from './turn-stream.js';
import { ANTHROPIC_REASONING } from './anthropic-request.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

type ThinkingDraft = { type: 'thinking'; parts: string[]; signature: string } | { type: 'redacted_thinking'; data: string };

/** Why the model refused (message_delta's `stop_details`). */
type StopDetails = { type?: string; category?: string | null; explanation?: string | null } | null | undefined;

type UsageFields = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
};

export class AnthropicTurn implements TurnTranslator<SseMessage> {
  done = false;
  private readonly calls = new ToolCallAssembler();
  private readonly thinking = new Map<number, ThinkingDraft>();
  private started = false;
  private stopReason: AnthropicStop | null = null;
  private stopDetails: StopDetails;
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(private readonly model: string) {}

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
        // Only text is text: a hostile or broken server's other values never reach the log as a delta.
        if (d.type === 'text_delta') return typeof d.text === 'string' && d.text !== '' ? { type: 'text_delta', text: d.text } : undefined;
        if (d.type === 'input_json_delta') return this.calls.append(ev.index, d.partial_json);
        if (d.type === 'thinking_delta') return typeof d.thinking === 'string' ? this.addThinking(ev.index, d.thinking) : undefined;
        else if (d.type === 'signature_delta') this.addSignature(ev.index, d.signature);
        return undefined;
      }
      case 'content_block_start':
        return this.startBlock(ev.index, ev.content_block);
      case 'content_block_stop':
        this.calls.close(ev.index);
        return undefined;
      case 'message_start':
        // Two messages spliced into one stream (a broken proxy) are not one turn.
        if (this.started) throw new TurnFailure(modelError('unknown', SPLICED, false));
        this.started = true;
        this.addUsage(ev.message.usage);
        return undefined;
      case 'message_delta':
        this.stopReason = ev.delta.stop_reason ?? this.stopReason;
        this.stopDetails = (ev.delta as { stop_details?: StopDetails }).stop_details ?? this.stopDetails;
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
    const events: ModelEvent[] = [];
    if (stop === 'refusal') events.push({ type: 'text_delta', text: refusalText(this.stopDetails) });
    const reasoning = this.reasoningBlocks();
    if (reasoning.length > 0) events.push({ type: 'reasoning', reasoning: { format: ANTHROPIC_REASONING, blocks: reasoning } });
    events.push(...intents, { type: 'usage', usage: withCost(this.model, this.usage) });
    events.push({ type: 'final', stopReason: intents.length > 0 ? 'tool_intent' : stop === 'tool_intent' ? 'stop' : stop });
    return events;
  }

  private startBlock(index: number, block: ContentBlock): ModelEvent | undefined {
    if (block.type === 'text') {
      if (typeof block.text === 'string' && block.text) return { type: 'text_delta', text: block.text };
    } else if (block.type === 'tool_use') {
      // Usually `{}` with the input streamed after it; some servers send the input whole here.
      return this.calls.start(index, block.id, block.name, block.input);
    } else if (block.type === 'thinking') {
      this.thinking.set(index, { type: 'thinking', parts: [], signature: block.signature ?? '' });
      if (typeof block.thinking === 'string' && block.thinking) return this.addThinking(index, block.thinking);
    } else if (block.type === 'redacted_thinking') {
      this.thinking.set(index, { type: 'redacted_thinking', data: block.data });
    }
    // Anything else (server_tool_use, web_search_tool_result, …) ran on the API's side: not a call of ours.
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

  /** The turn's thinking, block by block in the order the API wrote it. */
  private reasoningBlocks(): ReasoningBlock[] {
    return [...this.thinking.entries()]
      .sort(([a], [b]) => a - b)
      .map(
        ([, d]): ReasoningBlock =>
          d.type === 'thinking' ? { type: 'text', text: d.parts.join(''), signature: d.signature } : { type: 'encrypted', data: d.data },
      );
  }
}

const SPLICED = "Anthropic's response stream was malformed: a second message began before the first ended, so neither was kept.";

/** What the user reads when the model refused: its stated reason, or that it gave none. */
function refusalText(details: StopDetails): string {
  const category = details?.category ? ` (${details.category.replace(/_/g, ' ')})` : '';
  const why = details?.explanation?.trim();
  return `\n\nThe model declined to answer${category}${why ? `: ${why}` : ', and gave no reason.'}`;
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
