// The Anthropic provider: the official SDK makes the request (auth, base URL, HTTP errors as
// its error classes); the body's events are decoded by sseBatches a network read at a time,
// translated by AnthropicTurn and retried by streamTurn. The SDK's own retries are off so
// that every retry is ours and shown.
import Anthropic, { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ModelError, ModelEvent, ModelProvider, ModelRequest } from '../kernel/contracts/index.js';
import { toAnthropicParams } from './anthropic-request.js';
import { AnthropicTurn } from './anthropic-stream.js';
import { capabilitiesFor, rulesOf, type CapabilityOverrides } from './models.js';
import { anthropicThinking, type ReasoningSetting } from './reasoning.js';
import { isSendableKey, missingKeyError, resolveApiKey, unsendableKeyError } from './credentials.js';
import {
  StreamErrorEvent,
  TurnFailure,
  cancelledError,
  classifyApiFailure,
  classifyTransportError,
  jsonAnswerFailure,
  withoutKey,
  type VendorInfo,
} from './errors.js';
import { anthropicMessageEvents } from './json-answers.js';
import type { RetryOptions } from './retry.js';
import { responseBatches } from './sse.js';
import { singleEvent, streamTurn } from './turn-stream.js';

export interface AnthropicProviderOptions extends CapabilityOverrides {
  /** Falls back to ANTHROPIC_API_KEY; may be empty with a `baseURL` (a local proxy). */
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** keel.reasoning: extended thinking as the model table says the model takes it; absent: off. */
  reasoning?: ReasoningSetting;
  retry?: RetryOptions;
  /** Milliseconds the SDK waits for a response before giving up on an attempt. */
  timeoutMs?: number;
}

export function createAnthropicProvider(opts: AnthropicProviderOptions): ModelProvider {
  const capabilities = capabilitiesFor(opts.model, opts);
  const vendor: VendorInfo = {
    label: opts.baseURL ? `Anthropic (${opts.baseURL})` : 'Anthropic',
    keyEnvVar: 'ANTHROPIC_API_KEY',
    url: opts.baseURL ?? 'https://api.anthropic.com',
  };
  const apiKey = resolveApiKey(opts.apiKey, vendor, opts.baseURL);
  const thinking = anthropicThinking(rulesOf(opts.model).reasoning, opts.reasoning ?? 'default');
  const client = apiKey ? new Anthropic({ apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs }) : undefined;

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
        thinking,
      });
      const source = {
        // The SDK makes the request (auth, base URL, HTTP errors as its error classes); the body's
        // events are decoded by sse.ts, a network read at a time.
        open: async (signal: AbortSignal) =>
          responseBatches(await client.messages.create(params, { signal }).asResponse(), 'Anthropic', (body) => {
            const events = anthropicMessageEvents(body);
            if (events) return events;
            const failure = jsonAnswerFailure(body, vendor);
            throw new TurnFailure(withoutKey(failure.error, apiKey));
          }),
        translator: () => new AnthropicTurn(opts.model),
        classify: (e: unknown, s: AbortSignal) => withoutKey(classifyAnthropicError(e, s, vendor), apiKey),
      };
      return streamTurn(source, signal, opts.retry);
    },
  };
}

export function classifyAnthropicError(e: unknown, signal: AbortSignal, vendor: VendorInfo): ModelError {
  if (e instanceof APIUserAbortError || signal.aborted) return cancelledError();
  if (e instanceof StreamErrorEvent) return classifyApiFailure(e.failure, vendor);
  if (e instanceof APIConnectionError || !(e instanceof APIError)) return classifyTransportError(e, signal, vendor.url);
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
