// What an OpenAI-compatible server itself demands of a request, by its host, as data: the model
// table (models.ts) knows models, this knows servers. Mistral's API refuses fields it does not
// know (`stream_options`, `max_completion_tokens`: HTTP 422) and reports usage unasked; Groq's
// refuses reasoning on an assistant message (HTTP 400). A server not listed here gets the
// defaults, and the user can still set the token parameter (keel.maxTokensParameter).

import type { MaxTokensParam } from './models.js';

export interface EndpointRules {
  /** The field the output limit goes in, when the server knows only one. */
  maxTokensParam?: MaxTokensParam;
  /** False: the server refuses `stream_options` (it sends usage without being asked). */
  streamOptions?: boolean;
  /** False: the server refuses a turn's reasoning on its assistant message. */
  returnReasoning?: boolean;
}

const ENDPOINTS: { host: RegExp; rules: EndpointRules }[] = [
  { host: /(^|\.)mistral\.ai$/, rules: { maxTokensParam: 'max_tokens', streamOptions: false, returnReasoning: false } },
  { host: /(^|\.)groq\.com$/, rules: { returnReasoning: false } },
  { host: /(^|\.)deepseek\.com$/, rules: { maxTokensParam: 'max_tokens' } },
];

/** The rules of the server at `baseURL` (none: OpenAI's own API, or a server not listed). */
export function endpointRules(baseURL: string | undefined): EndpointRules {
  if (!baseURL) return {};
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return {};
  }
  return ENDPOINTS.find((e) => e.host.test(host))?.rules ?? {};
}
