// One attempt's OpenAI Responses API event stream → kernel ModelEvents. The stream is typed
// events (`response.output_text.delta`, `response.function_call_arguments.delta`, …) about output
// items in order; the turn is whole only at its terminal event — `response.completed`, or
// `response.incomplete` (the output limit, a content filter) — and `response.failed` or an
// `error` event ends it in an error classified like an HTTP one. Text and reasoning summaries
// stream out as they come; function calls (keyed by their item's output_index, answered under
// their `call_id`), the reasoning items to send back (their `encrypted_content`, byte for byte),
// usage and the stop reason go out with the terminal event.
import type { ModelEvent, ReasoningBlock, StopReason, Usage } from '../kernel/contracts/index.js';
import { StreamErrorEvent, TurnFailure, modelError } from './errors.js';
import { withCost } from './models.js';
import type { SseMessage } from './sse.js';
import type { TurnTranslator } from './turn-stream.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

/** The `format` of reasoning this wire writes: only the Responses path sends it back. */
export const RESPONSES_REASONING = 'openai_responses';

/** The fields of the events this translator reads (the SDK's ResponseStreamEvent, loosely: the wire is untrusted). */
interface WireEvent {
  type?: string;
  delta?: unknown;
  arguments?: unknown;
  output_index?: number;
  summary_index?: number;
  item?: WireItem;
  response?: WireResponse & { id?: string };
  code?: unknown;
  message?: unknown;
  /** A gateway's `error` event may carry the error as an object, as a chat server's does. */
  error?: { code?: unknown; message?: unknown };
}

interface WireItem {
  type?: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  summary?: { text?: unknown }[];
  encrypted_content?: string | null;
}

interface WireResponse {
  status?: string;
  error?: { code?: unknown; message?: unknown } | null;
  incomplete_details?: { reason?: string } | null;
  usage?: WireUsage | null;
}

/** ResponseUsage: input_tokens counts the cached ones; output_tokens counts the reasoning ones. */
interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

const SPLICED = 'The model server’s stream was malformed: a second response began inside the first, so neither was kept.';

const FILTERED = '\n\nThe reply was stopped by the server’s content filter (response.incomplete: content_filter).';

export class ResponsesTurn implements TurnTranslator<SseMessage> {
  done = false;
  private readonly calls = new ToolCallAssembler();
  private readonly reasoning: ReasoningBlock[] = [];
  /** The last summary part a delta came from, to put a paragraph break between parts. */
  private summaryAt: string | undefined;
  private stop: StopReason | undefined;
  private usage: Usage | undefined;
  private refused = false;
  private id: string | undefined;

  constructor(private readonly model: string) {}

  get complete(): boolean {
    return this.stop !== undefined;
  }

  push(message: SseMessage): ModelEvent | ModelEvent[] | undefined {
    // A SyntaxError here is a garbled stream: the adapter retries the turn.
    const e = JSON.parse(message.data) as WireEvent;
    switch (e.type) {
      case 'response.created':
        return this.started(e.response?.id);
      case 'response.output_text.delta':
        return typeof e.delta === 'string' && e.delta ? { type: 'text_delta', text: e.delta } : undefined;
      case 'response.reasoning_summary_text.delta':
        return this.summaryDelta(e);
      // Raw reasoning text (open-weight models served through the Responses API).
      case 'response.reasoning_text.delta':
        return typeof e.delta === 'string' && e.delta ? { type: 'reasoning_delta', text: e.delta } : undefined;
      // A refusal is text the user should read: why the model declined.
      case 'response.refusal.delta':
        if (typeof e.delta !== 'string' || !e.delta) return undefined;
        this.refused = true;
        return { type: 'text_delta', text: e.delta };
      case 'response.output_item.added':
        return this.itemAdded(e);
      case 'response.function_call_arguments.delta':
        return typeof e.delta === 'string' ? this.argumentsDelta(callKey(e), e.delta) : undefined;
      case 'response.function_call_arguments.done':
        return this.argumentsDone(e);
      case 'response.output_item.done':
        return this.itemDone(e);
      case 'response.completed':
      case 'response.incomplete':
        return this.end(e.response);
      case 'response.failed':
        throw new StreamErrorEvent(failureOf(e.response?.error));
      case 'error':
        throw new StreamErrorEvent(failureOf(e.error ?? e));
      default:
        return undefined;
    }
  }

  finish(): ModelEvent[] {
    if (this.stop === undefined)
      throw new TurnFailure(modelError('network', 'The response stream ended before the reply was complete.', true));
    const intents = this.calls.intents({ requireClosed: false, truncated: this.stop === 'length' });
    const events: ModelEvent[] = [];
    if (this.stop === 'refusal' && !this.refused) events.push({ type: 'text_delta', text: FILTERED });
    if (this.reasoning.length > 0) events.push({ type: 'reasoning', reasoning: { format: RESPONSES_REASONING, blocks: this.reasoning } });
    events.push(...intents);
    if (this.usage) events.push({ type: 'usage', usage: withCost(this.model, this.usage) });
    events.push({ type: 'final', stopReason: intents.length > 0 ? 'tool_intent' : this.stop });
    return events;
  }

  /** A second response's start inside this one's stream (two replies spliced): neither can be trusted. */
  private started(id: string | undefined): undefined {
    if (this.id !== undefined) throw new TurnFailure(modelError('unknown', SPLICED, false));
    this.id = id ?? '';
    return undefined;
  }

  private summaryDelta(e: WireEvent): ModelEvent | undefined {
    if (typeof e.delta !== 'string' || !e.delta) return undefined;
    const at = `${e.output_index}:${e.summary_index}`;
    const text = this.summaryAt !== undefined && this.summaryAt !== at ? `\n\n${e.delta}` : e.delta;
    this.summaryAt = at;
    return { type: 'reasoning_delta', text };
  }

  private itemAdded(e: WireEvent): ModelEvent | undefined {
    const item = e.item;
    if (item?.type !== 'function_call') return undefined;
    const key = callKey(e);
    if (this.calls.has(key)) return undefined;
    const started = this.calls.start(key, item.call_id ?? '', item.name ?? '');
    return (item.arguments ? this.calls.append(key, item.arguments) : undefined) ?? started;
  }

  /** A fragment of a call whose item was not announced still belongs to it: its id and name come with its item's end. */
  private argumentsDelta(key: number, fragment: string): ModelEvent | undefined {
    if (!this.calls.has(key)) this.calls.start(key, '', '');
    return this.calls.append(key, fragment);
  }

  /** The call's whole arguments: used when no delta carried them (a server that sends them only here). */
  private argumentsDone(e: WireEvent): ModelEvent | undefined {
    const key = callKey(e);
    if (!this.calls.has(key)) this.calls.start(key, '', '');
    return this.fillCall(key, typeof e.arguments === 'string' ? e.arguments : undefined);
  }

  private itemDone(e: WireEvent): ModelEvent | undefined {
    const item = e.item;
    if (item?.type === 'reasoning') {
      this.keepReasoning(item);
      return undefined;
    }
    if (item?.type !== 'function_call') return undefined;
    const key = callKey(e);
    if (!this.calls.has(key)) this.calls.start(key, item.call_id ?? '', item.name ?? '');
    this.calls.amend(key, item.call_id, item.name);
    const progress = this.fillCall(key, item.arguments);
    this.calls.close(key);
    return progress;
  }

  private fillCall(key: number, whole: string | undefined): ModelEvent | undefined {
    if (!whole || this.calls.bytesOf(key) > 0) return undefined;
    return this.calls.append(key, whole);
  }

  /**
   * A reasoning item goes back in the next request as it came (store is off: OpenAI keeps
   * nothing, so the encrypted content is the reasoning). One without it cannot be sent back.
   */
  private keepReasoning(item: WireItem): void {
    if (typeof item.encrypted_content !== 'string' || !item.encrypted_content) return;
    const summary = (item.summary ?? []).flatMap((s) => (typeof s?.text === 'string' ? [s.text] : []));
    this.reasoning.push({ type: 'encrypted', data: item.encrypted_content, ...(item.id ? { id: item.id } : {}), summary });
  }

  private end(response: WireResponse | undefined): undefined {
    this.done = true;
    if (response?.usage) this.usage = toUsage(response.usage);
    const reason = response?.incomplete_details?.reason;
    this.stop = reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'refusal' : 'stop';
    return undefined;
  }
}

/** Calls are keyed by their item's place in the output. */
const callKey = (e: WireEvent): number => (typeof e.output_index === 'number' ? e.output_index : -1);

function failureOf(error: { code?: unknown; message?: unknown } | null | undefined): ConstructorParameters<typeof StreamErrorEvent>[0] {
  const code = error?.code;
  return {
    message: typeof error?.message === 'string' ? error.message : 'the response failed',
    code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
  };
}

const count = (n: number | null | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);

function toUsage(u: WireUsage): Usage {
  const input = count(u.input_tokens);
  const cached = Math.min(count(u.input_tokens_details?.cached_tokens), input);
  // output_tokens already counts the reasoning tokens (output_tokens_details says how many).
  const output = Math.max(count(u.output_tokens), count(u.output_tokens_details?.reasoning_tokens));
  return { inputTokens: input - cached, outputTokens: output, cacheReadTokens: cached, cacheWriteTokens: 0 };
}
