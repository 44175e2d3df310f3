// What a model provider may say, and what the kernel asks of it. Providers translate their
// SDK's stream into these events and nothing else; no SDK type crosses this line.
import { z } from 'zod';
import type { Attachment } from './attachments.js';

export const StopReasonSchema = z.enum(['stop', 'tool_intent', 'length', 'refusal', 'error']);
export type StopReason = z.infer<typeof StopReasonSchema>;

export const ModelErrorKindSchema = z.enum([
  'rate_limited',
  'overloaded',
  'context_overflow',
  'auth',
  'bad_request',
  'network',
  'cancelled',
  'unknown',
]);
export type ModelErrorKind = z.infer<typeof ModelErrorKindSchema>;

export const ModelErrorSchema = z.object({
  kind: ModelErrorKindSchema,
  message: z.string(),
  retryable: z.boolean(),
  retryAfterMs: z.number().optional(),
  status: z.number().optional(),
});
export type ModelError = z.infer<typeof ModelErrorSchema>;

export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  /** Undefined when the model has no known price: the UI shows tokens and no cost. */
  costUsd: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * One piece of a turn's reasoning as the API must get it back: readable text (Anthropic's
 * thinking with its `signature`; DeepSeek's, Kimi's or Qwen's `reasoning_content`), or reasoning
 * the API sent encrypted (Anthropic's `redacted_thinking`; an OpenAI Responses reasoning item's
 * `encrypted_content`, with its `id` and readable `summary`). Opaque fields travel byte for byte.
 */
const ReasoningBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), signature: z.string().optional() }),
  z.object({ type: z.literal('encrypted'), data: z.string(), id: z.string().optional(), summary: z.array(z.string()).optional() }),
]);
export type ReasoningBlock = z.infer<typeof ReasoningBlockSchema>;

/**
 * A turn's reasoning, kept with the turn so the next request can send it back (and a resumed
 * task still can). `format` names the wire that wrote it — an adapter sends back only its own
 * (a signature means nothing to another API), and decides per model whether to send it at all.
 */
export const ReasoningSchema = z.object({ format: z.string(), blocks: z.array(ReasoningBlockSchema) });
export type Reasoning = z.infer<typeof ReasoningSchema>;

const ModelEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({ type: z.literal('reasoning_delta'), text: z.string() }),
  /** The turn's reasoning as the API must get it back: once, with the closing events, before `final`. */
  z.object({ type: z.literal('reasoning'), reasoning: ReasoningSchema }),
  /**
   * A tool call of a finished turn. `input` is unvalidated: the kernel validates it against the
   * tool. `inputError` is set (and `input` is null) when the call's JSON did not parse: the
   * kernel answers the model with an `invalid_input` observation instead of running it.
   */
  z.object({
    type: z.literal('tool_intent'),
    providerRef: z.string(),
    tool: z.string(),
    input: z.unknown(),
    inputError: z.string().optional(),
  }),
  /**
   * A tool call's input is streaming (not whole yet): which call of the turn (0, 1, …), its tool,
   * the bytes of input so far and, once they show it, the file it names. Only a sign of progress
   * for people: the call itself comes as `tool_intent` when the turn completes.
   */
  z.object({
    type: z.literal('tool_input_progress'),
    call: z.number(),
    tool: z.string(),
    bytes: z.number(),
    path: z.string().optional(),
  }),
  z.object({ type: z.literal('usage'), usage: UsageSchema }),
  z.object({ type: z.literal('final'), stopReason: StopReasonSchema }),
  z.object({ type: z.literal('error'), error: ModelErrorSchema }),
  /**
   * The provider abandoned the turn so far (a mid-stream failure) and will stream it again
   * from its start after `delayMs`. Everything streamed since the turn began is void.
   */
  z.object({
    type: z.literal('retry'),
    attempt: z.number(),
    delayMs: z.number(),
    error: ModelErrorSchema,
  }),
]);
export type ModelEvent = z.infer<typeof ModelEventSchema>;

export interface ImagePart {
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  /** base64, no data: prefix */
  data: string;
}

interface ToolCallRef {
  /** The kernel's id: the source of truth. */
  intentId: string;
  /** The provider's own call id, echoed back with the result. */
  providerRef: string;
  tool: string;
  input: unknown;
}

export type ModelMessage =
  | { role: 'user'; text: string; images?: ImagePart[]; attachments?: Attachment[] }
  /** `reasoning`: what the turn reasoned, for the adapter that wrote it to send back (or leave out). */
  | { role: 'assistant'; text: string; toolCalls: ToolCallRef[]; reasoning?: Reasoning }
  | {
      role: 'tool_result';
      intentId: string;
      providerRef: string;
      tool: string;
      content: string;
      isError: boolean;
      images?: ImagePart[];
    };

export interface ToolSchema {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 object schema) derived from the tool's zod schema. */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSchema[];
  maxOutputTokens?: number;
  /**
   * How many leading messages are the task's stable prefix (the goal, then the folded notes and
   * ledger): byte-identical in every request until the next fold. Adapters cache up to here.
   */
  stablePrefix?: number;
  /** `note`: a request for an episode note (folding), not a turn of the task. */
  purpose?: 'turn' | 'note';
}

export interface ModelCapabilities {
  tools: boolean;
  vision: boolean;
  promptCaching: boolean;
  contextWindow: number;
  maxOutputTokens: number;
  /**
   * False when the provider cannot answer a request it was not scripted for (the scripted
   * provider): episode notes are then written by Keel's deterministic fallback.
   */
  writesNotes?: boolean;
}

export interface ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly capabilities: ModelCapabilities;
  /**
   * Streams one model turn. Must not throw for API failures: they arrive as an `error`
   * event (and the stream ends). Ends with `final` on success.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
  /**
   * Asked before each run, before the run's budget is read from `capabilities`: a provider that
   * asks its server what it is (a local server's context window) does so here, and updates
   * `capabilities`. Never throws; absent: the capabilities are known already.
   */
  prepare?(signal: AbortSignal): Promise<void>;
  /**
   * The provider a child frame's turns go to; absent: the parent's. A replay uses it to hand
   * each frame its own recorded turns (children may run side by side).
   */
  forFrame?(frameId: string): ModelProvider;
  /**
   * The same vendor, key and endpoint asking for another model: what a custom agent's `model`
   * (as written: an alias, a display name, an id) resolves to. Absent: the provider serves one
   * model (the scripted demo), so an agent's model is kept as the task's.
   */
  withModel?(requested: string): ModelSwitch;
}

/** Why an agent's model was not used (the task's model ran instead). */
export const MODEL_KEPT_REASONS = ['unknown', 'other_vendor', 'fixed'] as const;
export type ModelKeptReason = (typeof MODEL_KEPT_REASONS)[number];

/**
 * What asking for another model gives: a provider for it; `same` (inherit, or the model already
 * running); or the task's model kept, with why (a name Keel cannot map, a model of another vendor —
 * keys and endpoints are per vendor —, or a provider with one model).
 */
export type ModelSwitch = { type: 'switched'; provider: ModelProvider } | { type: 'same' } | { type: 'kept'; reason: ModelKeptReason };
