// The Anthropic provider: the official SDK makes the request (auth, base URL, HTTP errors as
// its error classes); the body's events are decoded by sseBatches a network read at a time,
// translated by AnthropicTurn and retried by streamTurn. The SDK's own retries are off so
// that every retry is ours and shown. Claude on Bedrock and Vertex (cloud-claude.ts) runs through
// the same core, `createClaudeProvider`, with their SDKs' clients: those expose the same
// messages API and hand back Anthropic's server-sent events whatever their wire carries.
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

/** What the core needs of a client: Anthropic's, Bedrock's and Vertex's alike. */
interface ClaudeClient {
  messages: Pick<Anthropic['messages'], 'create'>;
}

/** How one route to Claude is reached: its name, how it is told to the user, and its client. */
export interface ClaudeRoute {
  name: string;
  vendor: VendorInfo;
  /** The client, or why there is none (no credential, no region); made on the first turn. */
  client(): ClaudeClient | ModelError;
  /** A secret the route sends that no error message may quote. */
  secret?: string;
  /** An SDK error only this route knows (a cloud's missing credentials), else undefined. */
  classify?(e: unknown): ModelError | undefined;
}

export function createAnthropicProvider(opts: AnthropicProviderOptions): ModelProvider {
  const vendor: VendorInfo = {
    label: opts.baseURL ? `Anthropic (${opts.baseURL})` : 'Anthropic',
    keyEnvVar: 'ANTHROPIC_API_KEY',
    url: opts.baseURL ?? 'https://api.anthropic.com',
  };
  const apiKey = resolveApiKey(opts.apiKey, vendor, opts.baseURL);
  return createClaudeProvider(opts, {
    name: 'anthropic',
    vendor,
    secret: apiKey,
    client: () => {
      if (!apiKey) return missingKeyError(vendor);
      if (!isSendableKey(apiKey)) return unsendableKeyError(vendor);
      return new Anthropic({ apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs });
    },
  });
}

/** A provider speaking Anthropic's messages API through `route`'s client. */
export function createClaudeProvider(opts: Omit<AnthropicProviderOptions, 'apiKey'>, route: ClaudeRoute): ModelProvider {
  const capabilities = capabilitiesFor(opts.model, opts);
  const { vendor } = route;
  const thinking = anthropicThinking(rulesOf(opts.model).reasoning, opts.reasoning ?? 'default');
  let made: ClaudeClient | ModelError | undefined;

  return {
    name: route.name,
    model: opts.model,
    capabilities,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      made ??= route.client();
      if (!('messages' in made)) return singleEvent({ type: 'error', error: made });
      const client = made;
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
          responseBatches(await client.messages.create(params, { signal }).asResponse(), vendor.label, (body) => {
            const events = anthropicMessageEvents(body);
            if (events) return events;
            const failure = jsonAnswerFailure(body, vendor);
            throw new TurnFailure(withoutKey(failure.error, route.secret));
          }),
        translator: () => new AnthropicTurn(opts.model),
        classify: (e: unknown, s: AbortSignal) =>
          withoutKey((!s.aborted && route.classify?.(e)) || classifyAnthropicError(e, s, vendor), route.secret),
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
