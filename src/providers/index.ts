// The model adapters. Which one a task runs on is chosen in src/compose/provider.ts; what Keel
// knows about each model (window, output limit, price) is in models.ts.

export { createAnthropicProvider } from './anthropic.js';
export { createOpenAIProvider } from './openai.js';
export { ScriptedProvider } from './scripted.js';
export { capabilitiesFor, priceOf, type Price } from './models.js';

/** The model used when none is set: the CLI's and the extension's default alike. */
export const DEFAULT_MODELS = { anthropic: 'claude-sonnet-5-5', openai: 'gpt-4o' } as const;
