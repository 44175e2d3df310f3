// How a host builds a runtime: the provider its settings name and the runtime around it.
export { composeRuntime, composeRegistry, composePolicy } from './runtime.js';
export { createModelProvider, modelOf } from './provider.js';
export { workspaceCheckpoints } from './checkpoints.js';
export { createMcpHub, loadMcpConfigs, mcpFiles } from './mcp.js';
