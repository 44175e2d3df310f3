// The model adapters, and one way to pick one by name (the CLI and the extension's settings).
import type { ModelProvider } from '../kernel/index.js';
import { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic.js';
import { createOpenAIProvider, type OpenAIProviderOptions } from './openai.js';
import { ScriptedProvider, type Script, type ScriptedOptions } from './scripted.js';

export { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic.js';
export { createOpenAIProvider, type OpenAIProviderOptions } from './openai.js';
export { ScriptedProvider, textTurn, toolTurn, type Script, type ScriptedOptions, type ScriptedTurn } from './scripted.js';
export { capabilitiesFor } from './capabilities.js';
export { OFFICIAL_API_ORIGIN } from './endpoints.js';
export { priceOf, withCost, type Price } from './pricing.js';
export type { RetryOptions } from './retry.js';

export type ProviderName = 'anthropic' | 'openai' | 'scripted';

/** The model used when none is set: the CLI's and the extension's default alike. */
export const DEFAULT_MODELS = { anthropic: 'claude-sonnet-5-5', openai: 'gpt-4o' } as const;

export type ProviderOptions<N extends ProviderName> = N extends 'anthropic'
  ? AnthropicProviderOptions
  : N extends 'openai'
    ? OpenAIProviderOptions
    : ScriptedOptions & { script: Script };

export function createProvider<N extends ProviderName>(name: N, opts: ProviderOptions<N>): ModelProvider {
  switch (name) {
    case 'anthropic':
      return createAnthropicProvider(opts as AnthropicProviderOptions);
    case 'openai':
      return createOpenAIProvider(opts as OpenAIProviderOptions);
    case 'scripted': {
      const { script, ...options } = opts as ScriptedOptions & { script: Script };
      return new ScriptedProvider(script, options);
    }
    default:
      throw new Error(`Unknown provider "${String(name)}": use anthropic, openai or scripted.`);
  }
}
