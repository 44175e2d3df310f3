// Step 1 of composing a runtime: the model provider a host's settings name. The one place a
// vendor name becomes an adapter, for the CLI and the extension alike; a provider added here
// appears in both.
import type { ModelProvider } from '../kernel/index.js';
import { createAnthropicProvider, createOpenAIProvider, DEFAULT_MODELS } from '../providers/index.js';

type VendorName = keyof typeof DEFAULT_MODELS;

export interface ProviderChoice {
  provider: VendorName;
  /** Empty or undefined: the vendor's default model. */
  model?: string | undefined;
  /** Empty or undefined: the vendor's official endpoint. */
  baseUrl?: string | undefined;
}

/** The model a choice runs: the one named, else the vendor's default. */
export function modelOf(choice: ProviderChoice): string {
  return choice.model || DEFAULT_MODELS[choice.provider];
}

/** The vendor adapter; without `apiKey` the SDK reads its own environment variable. */
export function createModelProvider(choice: ProviderChoice, apiKey?: string): ModelProvider {
  const options = {
    model: modelOf(choice),
    ...(apiKey ? { apiKey } : {}),
    ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
  };
  return choice.provider === 'openai' ? createOpenAIProvider(options) : createAnthropicProvider(options);
}
