// The Anthropic provider: the official SDK makes the request (auth, base URL, HTTP errors as
// its error classes); the body's events are decoded by sseBatches a network read at a time,
// translated by AnthropicTurn and retried by streamTurn. The SDK's own retries are off so
// that every retry is ours and shown.
import Anthropic, { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ModelError, ModelEvent, ModelProvider, ModelRequest } from '../kernel/contracts/index.js';
import { toAnthropicParams, type ThinkingParam } from './anthropic-request.js';
import { AnthropicTurn } from './anthropic-stream.js';
import { capabilitiesFor, type CapabilityOverrides } from './models.js';
import { isSendableKey, missingKeyError, resolveApiKey, unsendableKeyError } from './credentials.js';
import { StreamErrorEvent, cancelledError, classifyApiFailure, classifyTransportError, withoutKey, type VendorInfo } from './errors.js';
import type { RetryOptions } from './retry.js';
import { responseBatches } from './sse.js';
import { singleEvent, streamTurn } from './turn-stream.js';

export interface AnthropicProviderOptions extends CapabilityOverrides {
  /** Falls back to ANTHROPIC_API_KEY; may be empty with a `baseURL` (a local proxy). */
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** Extended thinking budget; thinking is off when absent. */
  thinkingBudgetTokens?: number;
  retry?: RetryOptions;
  /** Milliseconds the SDK waits for a response before giving up on an attempt. */
  timeoutMs?: number;
}

export function createAnthropicProvider(opts: AnthropicProviderOptions): ModelProvider {
  const capabilities = capabilitiesFor(opts.model, opts);
  const vendor: VendorInfo = {
    label: opts.baseURL ? `Anthropic (${opts.baseURL})` : 'Anthropic',
    keyEnvVar: 'ANTHROPIC_API_KEY',
  };
  const apiKey = resolveApiKey(opts.apiKey, vendor, opts.baseURL);
  const client = apiKey ? new Anthropic({ apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs }) : undefined;
  const thinking = new RecentMap<string, ThinkingParam[]>(64);

  return {
    name: 'anthropic',
    model: opts.model,
    capabilities,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      if (!client || !apiKey) return singleEvent({ type: 'error', error: missingKeyError(vendor) });
      if (!isSendableKey(apiKey)) return singleEvent({ type: 'error', error: unsendableKeyError(vendor) });
      const params = toAnthropicParams(request, {
        model: opts.model,
        maxOutputTokens: capabilities.maxOutputTokens,
        vision: capabilities.vision,
        promptCaching: capabilities.promptCaching,
        thinkingBudgetTokens: opts.thinkingBudgetTokens,
        thinkingFor: (id) => thinking.get(id),
      });
      const source = {
        // The SDK makes the request (auth, base URL, HTTP errors as its error classes); the body's
        // events are decoded by sse.ts, a network read at a time.
        open: async (signal: AbortSignal) => responseBatches(await client.messages.create(params, { signal }).asResponse(), 'Anthropic'),
        translator: () => new AnthropicTurn(opts.model, (id, blocks) => thinking.set(id, blocks)),
        classify: (e: unknown, s: AbortSignal) => withoutKey(classifyAnthropicError(e, s, vendor), apiKey),
      };
      return streamTurn(source, signal, opts.retry);
    },
  };
}

export function classifyAnthropicError(e: unknown, signal: AbortSignal, vendor: VendorInfo): ModelError {
  if (e instanceof APIUserAbortError || signal.aborted) return cancelledError();
  if (e instanceof StreamErrorEvent) return classifyApiFailure(e.failure, vendor);
  if (e instanceof APIConnectionError || !(e instanceof APIError)) return classifyTransportError(e, signal);
  const body = e.error as { error?: { type?: string; message?: string } } | undefined;
  return classifyApiFailure(
    {
      status: e.status,
      type: e.type ?? body?.error?.type,
      message: e.apiMessage ?? body?.error?.message ?? e.message,
      headers: e.headers,
    },
    vendor,
  );
}

/** A small map that forgets its oldest entries: thinking blocks only matter for recent turns. */
class RecentMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value as K);
    return this;
  }
}
