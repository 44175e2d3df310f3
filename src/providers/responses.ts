// The OpenAI Responses API path of the OpenAI adapter (openai.ts chooses it): the models served
// only there (the gpt-5-codex family, gpt-5-pro: the model table's `wireApi`), or any model at a
// base URL whose user chose it (keel.wireApi, --wire-api). The request goes through the SDK's
// `client.responses.create({ stream: true })`; its body's events are decoded by sse.ts a network
// read at a time, like the chat path's, and read by responses-stream.ts.
import type OpenAI from 'openai';
import type { ModelCapabilities, ModelError, ModelEvent, ModelRequest } from '../kernel/contracts/index.js';
import { TurnFailure, jsonAnswerFailure, withoutKey, type VendorInfo } from './errors.js';
import { responseObjectEvents } from './json-answers.js';
import { rulesOf } from './models.js';
import { chatReasoningFields, type ReasoningSetting } from './reasoning.js';
import { toResponsesParams, type ResponsesRequestOptions } from './responses-request.js';
import { ResponsesTurn } from './responses-stream.js';
import { responseBatches, type SseMessage } from './sse.js';
import type { RetryOptions } from './retry.js';
import { streamTurn } from './turn-stream.js';

/** Which API a model's requests go to: `chat` completions, or the `responses` API. */
export type WireApi = 'chat' | 'responses';

/** What keel.wireApi and --wire-api take: `auto` leaves it to the model table. */
export const WIRE_API_CHOICES = ['auto', 'chat', 'responses'] as const;
export type WireApiChoice = (typeof WIRE_API_CHOICES)[number];

/** The user's word, else the model table's (the models served only by the Responses API), else chat. */
export function wireApiOf(model: string, chosen: WireApi | undefined): WireApi {
  return chosen ?? rulesOf(model).wireApi ?? 'chat';
}

export interface ResponsesSetup {
  client: OpenAI;
  apiKey: string;
  vendor: VendorInfo;
  model: string;
  capabilities: ModelCapabilities;
  reasoning: ReasoningSetting | undefined;
  retry: RetryOptions | undefined;
  classify(e: unknown, signal: AbortSignal): ModelError;
}

/** The stream of one turn on the Responses API. */
export function responsesTurn(s: ResponsesSetup): (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ModelEvent> {
  const options = responsesOptions(s);
  return (request, signal) => {
    const params = toResponsesParams(request, options);
    const source = {
      open: async (attempt: AbortSignal) =>
        responseBatches(await s.client.responses.create(params, { signal: attempt }).asResponse(), 'The model server', (body) => {
          const events = responseObjectEvents(body);
          if (events) return events;
          throw new TurnFailure(withoutKey(jsonAnswerFailure(body, s.vendor).error, s.apiKey));
        }),
      translator: () => new ResponsesTurn(s.model),
      classify: (e: unknown, attempt: AbortSignal) => withoutKey(s.classify(e, attempt), s.apiKey),
    };
    return streamTurn<SseMessage>(source, signal, s.retry);
  };
}

function responsesOptions(s: ResponsesSetup): ResponsesRequestOptions {
  const style = rulesOf(s.model).reasoning;
  const effort = chatReasoningFields(style, s.reasoning ?? 'default').reasoning_effort as ResponsesRequestOptions['effort'];
  return {
    model: s.model,
    maxOutputTokens: s.capabilities.maxOutputTokens,
    vision: s.capabilities.vision,
    reasons: style?.kind === 'effort',
    ...(effort ? { effort } : {}),
  };
}
