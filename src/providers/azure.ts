// Azure OpenAI: chat completions through the openai SDK's AzureOpenAI client, which writes Azure's
// URL shape (https://RESOURCE.openai.azure.com/openai/deployments/DEPLOYMENT/chat/completions
// ?api-version=…) and sends the key in the `api-key` header. keel.baseUrl is the resource's
// endpoint (an `api-version` query on it picks the version), keel.model the deployment's name;
// the stream itself is OpenAI's, read by the same adapter. A deployment's name says nothing of
// the model behind it: keel.maxTokensParameter tells Keel when it is a reasoning model.
import { AzureOpenAI } from 'openai';
import type { ModelProvider } from '../kernel/contracts/index.js';
import { checkBaseUrl } from './base-url.js';
import { modelError } from './errors.js';
import { capabilitiesFor } from './models.js';
import { createOpenAIProvider, type OpenAIProviderOptions } from './openai.js';
import { singleEvent } from './turn-stream.js';

/** The generally available API version used when the endpoint names none. */
const DEFAULT_API_VERSION = '2024-10-21';

export const AZURE_KEY_VARIABLE = 'AZURE_OPENAI_API_KEY';

export function createAzureProvider(opts: Omit<OpenAIProviderOptions, 'vendor' | 'client'>): ModelProvider {
  const checked = opts.baseURL ? checkBaseUrl(opts.baseURL, 'keel.baseUrl') : undefined;
  if (!checked?.ok) {
    const message = checked
      ? checked.message
      : 'Azure OpenAI needs your resource’s endpoint in keel.baseUrl (--base-url), such as https://RESOURCE.openai.azure.com, and the deployment’s name as the model.';
    return refusing(opts.model, message);
  }
  const url = checked.url;
  const apiVersion = url.searchParams.get('api-version') || DEFAULT_API_VERSION;
  const endpoint = url.origin;
  return createOpenAIProvider({
    ...opts,
    baseURL: endpoint,
    vendor: { name: 'azure', label: `Azure OpenAI (${endpoint})`, keyEnvVar: AZURE_KEY_VARIABLE },
    client: (apiKey) => new AzureOpenAI({ apiKey, endpoint, apiVersion, deployment: opts.model, maxRetries: 0, timeout: opts.timeoutMs }),
  });
}

function refusing(model: string, message: string): ModelProvider {
  return {
    name: 'azure',
    model,
    capabilities: capabilitiesFor(model),
    stream: () => singleEvent({ type: 'error', error: modelError('bad_request', message, false) }),
  };
}
