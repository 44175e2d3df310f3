// The model adapters. Which one a task runs on is chosen in src/compose/provider.ts.

export { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic.js';
export { createOpenAIProvider, type OpenAIProviderOptions } from './openai.js';
export { ScriptedProvider, textTurn, toolTurn, type Script, type ScriptedOptions, type ScriptedTurn } from './scripted.js';
export { capabilitiesFor } from './capabilities.js';
export { OFFICIAL_API_ORIGIN } from './endpoints.js';
export { priceOf, withCost, type Price } from './pricing.js';
export type { RetryOptions } from './retry.js';

/** The model used when none is set: the CLI's and the extension's default alike. */
export const DEFAULT_MODELS = { anthropic: 'claude-sonnet-5-5', openai: 'gpt-4o' } as const;
