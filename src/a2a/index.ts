// The A2A client and server: the only folder that imports @a2a-js/sdk. Remote agents listed in
// a2a.json become one delegate target (delegate_remote); Keel itself can be served as an agent.
export { a2aDefinitionKey, mergeA2aConfigs, parseA2aConfig, type A2aAgentConfig, type A2aConfigFile } from './config.js';
export { delegateRemoteTool, REMOTE_DELEGATE_TOOL, replayedDelegateRemoteTool } from './delegate-remote.js';
