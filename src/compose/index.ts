// How a host builds a runtime: the provider its settings name and the runtime around it.
export { composeRuntime, composeRegistry } from './runtime.js';
export { createModelProvider, modelOf } from './provider.js';
