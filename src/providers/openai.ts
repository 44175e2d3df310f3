// The OpenAI provider: chat-completions streaming through the official SDK, against
// api.openai.com or any OpenAI-compatible base URL (Ollama, LM Studio, vLLM, llama.cpp,
// OpenRouter). The SDK's own retries are off: every retry is ours and shown.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ModelError, ModelEvent, ModelProvider, ModelRequest } from '../kernel/contracts/index.js';
import { capabilitiesFor, rulesOf, type CapabilityOverrides, type MaxTokensParam } from './models.js';
import { chatReasoningFields, type ReasoningSetting } from './reasoning.js';
import { endpointRules } from './endpoints.js';
import { chatCompletionChunks } from './json-answers.js';
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
  /** keel.reasoning, as the model table says the model takes it; absent: the model's default. */
  reasoning?: ReasoningSetting;
  /** keel.maxTokensParameter: the user's word on the token field (a model the table cannot know). */
  maxTokensParam?: MaxTokensParam;
}

export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const capabilities = capabilitiesFor(opts.model, opts);
  const vendor: VendorInfo = {
    label: opts.baseURL ? `The model server at ${opts.baseURL}` : 'OpenAI',
    keyEnvVar: 'OPENAI_API_KEY',
  };
  const apiKey = resolveApiKey(opts.apiKey, vendor, opts.baseURL);
  const client = apiKey ? new OpenAI({ apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs }) : undefined;
  const rules = chatRequestRules(opts);
  let calls = 0;
  const newCallId = () => `call_keel_${Date.now().toString(36)}_${++calls}`;

  return {
    name: 'openai',
    model: opts.model,
    capabilities,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      if (!client || !apiKey) return singleEvent({ type: 'error', error: missingKeyError(vendor) });
      if (!isSendableKey(apiKey)) return singleEvent({ type: 'error', error: unsendableKeyError(vendor) });
      const params = toOpenAIParams(request, { ...rules, maxOutputTokens: capabilities.maxOutputTokens, vision: capabilities.vision });
      const source = {
        // The SDK makes the request (auth, base URL, HTTP errors as its error classes); the body's
        // events are decoded by sse.ts, a network read at a time.
        open: async (signal: AbortSignal) =>
          responseBatches(await client.chat.completions.create(params, { signal }).asResponse(), 'The model server', (body) => {
            const chunks = chatCompletionChunks(body);
            if (chunks) return chunks;
            throw new TurnFailure(withoutKey(jsonAnswerFailure(body, vendor).error, apiKey));
          }),
        translator: () => new OpenAITurn(opts.model, newCallId),
        classify: (e: unknown, s: AbortSignal) => withoutKey(classifyOpenAIError(e, s, vendor), apiKey),
      };
      return streamTurn(source, signal, opts.retry);
    },
  };
}

/**
 * How this model's requests are written, from the user's word, the model table and the server's
 * own rules, in that order; then the defaults: `max_completion_tokens` on OpenAI's own API (its
 * reasoning models take nothing else), `max_tokens` elsewhere (what every compatible server knows).
 */
export function chatRequestRules(opts: Pick<OpenAIProviderOptions, 'model' | 'baseURL' | 'reasoning' | 'maxTokensParam'>) {
  const model = rulesOf(opts.model);
  const endpoint = endpointRules(opts.baseURL);
  return {
    model: opts.model,
    maxTokensField:
      opts.maxTokensParam ?? model.maxTokensParam ?? endpoint.maxTokensParam ?? (opts.baseURL ? 'max_tokens' : 'max_completion_tokens'),
    streamOptions: endpoint.streamOptions ?? true,
    returnReasoning: endpoint.returnReasoning ?? true,
    reasoningFields: chatReasoningFields(model.reasoning, opts.reasoning ?? 'default'),
  } as const;
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
