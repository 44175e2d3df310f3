// The OpenAI provider: chat-completions streaming (or the Responses API, responses.ts, for the
// models served only there and where the user chose it) through the official SDK, against
// api.openai.com or any OpenAI-compatible base URL (Ollama, LM Studio, vLLM, llama.cpp,
// OpenRouter, Azure's client). The SDK's own retries are off: every retry is ours and shown.
// A local server's preset asks the server its context window before each run until it says.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ModelCapabilities, ModelError, ModelEvent, ModelProvider, ModelRequest } from '../kernel/contracts/index.js';
import { askContextWindow, type LocalServer } from './local-servers.js';
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
import { type OpenAIRequestOptions, toOpenAIParams } from './openai-request.js';
import { OpenAITurn } from './openai-stream.js';
import { responseBatches } from './sse.js';
import type { RetryOptions } from './retry.js';
import { singleEvent, streamTurn } from './turn-stream.js';
import { responsesTurn, wireApiOf, type WireApi } from './responses.js';

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
  /** Another vendor speaking chat completions (a local server's preset, Azure): its name, label and key variable. */
  vendor?: { name: string; label: string; keyEnvVar: string };
  /** Builds the SDK client for a key (Azure's client takes its endpoint, deployment and API version). */
  client?: (apiKey: string) => OpenAI;
  /** keel.wireApi / --wire-api: the API the model is reached through; absent: the model table's (chat for most). */
  wireApi?: WireApi;
  /** A local server that says its context window: asked before each run, unless the user set one. */
  contextProbe?: LocalServer;
}

export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const capabilities = capabilitiesFor(opts.model, opts);
  const vendor: VendorInfo = {
    label: opts.vendor?.label ?? (opts.baseURL ? `The model server at ${opts.baseURL}` : 'OpenAI'),
    keyEnvVar: opts.vendor?.keyEnvVar ?? 'OPENAI_API_KEY',
    url: opts.baseURL ?? 'https://api.openai.com/v1',
  };
  const apiKey = resolveApiKey(opts.apiKey, vendor, opts.baseURL);
  const makeClient =
    opts.client ?? ((key: string) => new OpenAI({ apiKey: key, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs }));
  const client = apiKey ? makeClient(apiKey) : undefined;
  const rules = chatRequestRules(opts);
  let calls = 0;
  const newCallId = () => `call_keel_${Date.now().toString(36)}_${++calls}`;
  const classify = (e: unknown, s: AbortSignal) => classifyOpenAIError(e, s, vendor);
  const responses =
    client && apiKey && wireApiOf(opts.model, opts.wireApi) === 'responses'
      ? responsesTurn({ client, apiKey, vendor, model: opts.model, capabilities, reasoning: opts.reasoning, retry: opts.retry, classify })
      : undefined;

  return {
    name: opts.vendor?.name ?? 'openai',
    model: opts.model,
    capabilities,
    ...(opts.contextProbe && opts.baseURL && opts.contextWindow === undefined
      ? { prepare: windowAsker(opts.contextProbe, opts.baseURL, opts, capabilities) }
      : {}),
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      if (!client || !apiKey) return singleEvent({ type: 'error', error: missingKeyError(vendor) });
      if (!isSendableKey(apiKey)) return singleEvent({ type: 'error', error: unsendableKeyError(vendor) });
      if (responses) return responses(request, signal);
      const params = toOpenAIParams(request, { ...rules, maxOutputTokens: capabilities.maxOutputTokens, vision: capabilities.vision });
      const source = {
        // The SDK makes the request (auth, base URL, HTTP errors as its error classes); the body's
        // events are decoded by sse.ts, a network read at a time.
        open: async (signal: AbortSignal) =>
          responseBatches(await createOnce(client, params, rules, opts.maxTokensParam, signal), 'The model server', (body) => {
            const chunks = chatCompletionChunks(body);
            if (chunks) return chunks;
            throw new TurnFailure(withoutKey(jsonAnswerFailure(body, vendor).error, apiKey));
          }),
        translator: () => new OpenAITurn(opts.model, newCallId),
        classify: (e: unknown, s: AbortSignal) => withoutKey(classify(e, s), apiKey),
      };
      return streamTurn(source, signal, opts.retry);
    },
  };
}

type ChatParams = ReturnType<typeof toOpenAIParams>;

/**
 * Sends the request. When the server refuses the token field by name (`param: "max_tokens"`, as
 * OpenAI's reasoning models behind Azure or a gateway answer) and the user did not choose it,
 * the other field is used from then on and the request sent once more: it was refused before
 * any work, so nothing was billed.
 */
async function createOnce(
  client: OpenAI,
  params: ChatParams,
  rules: { maxTokensField: MaxTokensParam },
  chosen: MaxTokensParam | undefined,
  signal: AbortSignal,
): Promise<Response> {
  try {
    return await client.chat.completions.create(params, { signal }).asResponse();
  } catch (e) {
    const field = rules.maxTokensField;
    if (chosen || !(e instanceof APIError) || e.status !== 400 || e.param !== field) throw e;
    const other: MaxTokensParam = field === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
    rules.maxTokensField = other;
    params[other] = params[field];
    delete params[field];
    return client.chat.completions.create(params, { signal }).asResponse();
  }
}

/**
 * Asks the local server its window before a run (once it answered, no more) and sets the
 * capabilities from it, as a window the user gave would (a quarter kept for the answer).
 */
function windowAsker(server: LocalServer, baseURL: string, opts: OpenAIProviderOptions, capabilities: ModelCapabilities) {
  let known = false;
  return async (signal: AbortSignal): Promise<void> => {
    if (known) return;
    const window = await askContextWindow(server, baseURL, opts.model, signal, capabilities.contextWindow);
    if (window === undefined) return;
    known = true;
    Object.assign(capabilities, capabilitiesFor(opts.model, { ...opts, contextWindow: window }));
  };
}

/**
 * How this model's requests are written, from the user's word, the model table and the server's
 * own rules, in that order; then the defaults: `max_completion_tokens` on OpenAI's own API (its
 * reasoning models take nothing else), `max_tokens` elsewhere (what every compatible server knows).
 */
export function chatRequestRules(
  opts: Pick<OpenAIProviderOptions, 'model' | 'baseURL' | 'reasoning' | 'maxTokensParam'>,
): Omit<OpenAIRequestOptions, 'maxOutputTokens' | 'vision'> {
  const model = rulesOf(opts.model);
  const endpoint = endpointRules(opts.baseURL);
  return {
    model: opts.model,
    maxTokensField:
      opts.maxTokensParam ?? model.maxTokensParam ?? endpoint.maxTokensParam ?? (opts.baseURL ? 'max_tokens' : 'max_completion_tokens'),
    streamOptions: endpoint.streamOptions ?? true,
    returnReasoning: endpoint.returnReasoning ?? true,
    reasoningFields: chatReasoningFields(model.reasoning, opts.reasoning ?? 'default'),
  };
}

export function classifyOpenAIError(e: unknown, signal: AbortSignal, vendor: VendorInfo): ModelError {
  if (e instanceof APIUserAbortError || signal.aborted) return cancelledError();
  if (e instanceof StreamErrorEvent) return classifyApiFailure(e.failure, vendor);
  if (e instanceof APIConnectionError || !(e instanceof APIError)) return classifyTransportError(e, signal, vendor.url);
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
