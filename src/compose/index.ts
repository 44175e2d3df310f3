// How a host builds a runtime: the provider its settings name and the runtime around it.
export { composeRuntime, composeRegistry, composePolicy, type ComposeInput, type RuntimeSettings } from './runtime.js';
export { createModelProvider, modelOf, type ProviderChoice, type VendorName } from './provider.js';
export { buildSystemPrompt, type SystemPromptInput } from './system-prompt.js';
