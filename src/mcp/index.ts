// The MCP client: servers from mcp.json files become kernel tools through the official SDK.
export {
  type McpConfigFile,
  type McpServerConfig,
  definitionKey,
  describeServer,
  mergeMcpConfigs,
  parseMcpConfig,
} from './config.js';
export { type McpHubOptions, type McpNotice, type McpServerStatus, McpHub, MAX_RESTARTS_PER_TASK } from './hub.js';
export type { McpRiskOverrides } from './tools.js';
