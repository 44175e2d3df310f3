// The OpenAI provider: chat-completions streaming through the official SDK, against
// api.openai.com or any OpenAI-compatible base URL (Ollama, LM Studio, vLLM, llama.cpp,
// OpenRouter). The SDK's own retries are off: every retry is ours and shown.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ModelError, ModelEvent, ModelProvider, ModelRequest } from '../kernel/contracts/index.js';
import { capabilitiesFor, type CapabilityOverrides } from './models.js';
import { isSendableKey, missingKeyError, resolveApiKey, unsendableKeyError } from './credentials.js';
import { StreamErrorEvent, cancelledError, classifyApiFailure, classifyTransportError, withoutKey, type VendorInfo } from './errors.js';
import { toOpenAIParams } from './openai-request.js';
import { OpenAITurn } from './openai-stream.js';
import { responseBatches } from './sse.js';
import type { RetryOptions } from './retry.js';
import { singleEvent, streamTurn } from './turn-stream.js';

export interface OpenAIProviderOptions extends CapabilityOverrides {
  /** Falls back to OPENAI_API_KEY; may be empty with a `baseURL` (local servers need none). */
  apiKey?: string;
  baseURL?: string;
  model: string;
  retry?: RetryOptions;
  /** Milliseconds the SDK waits for a response before giving up on an attempt. */
  timeoutMs?: number;
}

export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const capabilities = capabilitiesFor(opts.model, opts);
  const vendor: VendorInfo = {
    label: opts.baseURL ? `The model server at ${opts.baseURL}` : 'OpenAI',
    keyEnvVar: 'OPENAI_API_KEY',
  };
  const apiKey = resolveApiKey(opts.apiKey, vendor, opts.baseURL);
  const client = apiKey ? new OpenAI({ apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs }) : undefined;
  let calls = 0;
  const newCallId = () => `call_keel_${Date.now().toString(36)}_${++calls}`;

  return {
    name: 'openai',
    model: opts.model,
    capabilities,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      if (!client || !apiKey) return singleEvent({ type: 'error', error: missingKeyError(vendor) });
      if (!isSendableKey(apiKey)) return singleEvent({ type: 'error', error: unsendableKeyError(vendor) });
      const params = toOpenAIParams(request, {
        model: opts.model,
        maxOutputTokens: capabilities.maxOutputTokens,
        vision: capabilities.vision,
        maxTokensField: opts.baseURL ? 'max_tokens' : 'max_completion_tokens',
      });
      const source = {
        // The SDK makes the request (auth, base URL, HTTP errors as its error classes); the body's
        // events are decoded by sse.ts, a network read at a time.
        open: async (signal: AbortSignal) =>
          responseBatches(await client.chat.completions.create(params, { signal }).asResponse(), 'The model server'),
        translator: () => new OpenAITurn(opts.model, newCallId),
        classify: (e: unknown, s: AbortSignal) => withoutKey(classifyOpenAIError(e, s, vendor), apiKey),
      };
      return streamTurn(source, signal, opts.retry);
    },
  };
}

export function classifyOpenAIError(e: unknown, signal: AbortSignal, vendor: VendorInfo): ModelError {
  if (e instanceof APIUserAbortError || signal.aborted) return cancelledError();
  if (e instanceof StreamErrorEvent) return classifyApiFailure(e.failure, vendor);
  if (e instanceof APIConnectionError || !(e instanceof APIError)) return classifyTransportError(e, signal);
  const body = e.error as { message?: string } | undefined;
  return classifyApiFailure(
    {
      status: e.status,
      type: e.type ?? undefined,
      code: e.code ?? undefined,
      message: body?.message ?? e.message,
      headers: e.headers,
    },
    vendor,
  );
}
