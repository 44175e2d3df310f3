// The registry of external protocols a runtime draws tools from — MCP servers and A2A remote
// agents, side by side. Both are configured the same way: a user file (trusted) and a workspace
// file (used only once a person approved it, by the exact definition), read here for every host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { delegateRemoteTool, mergeA2aConfigs, parseA2aConfig, type A2aAgentConfig, type A2aConfigFile } from '../a2a/index.js';
import type { ToolDefinition } from '../kernel/index.js';
import type { McpHub } from '../mcp/index.js';
import { keelConfigDir } from '../node/config-folder.js';

/** The workspace's own A2A file, relative to its root. */
const WORKSPACE_A2A_FILE = '.keel/a2a.json';

export interface Protocols {
  /** MCP servers: the tools of those ready when the task is composed. */
  mcp?: McpHub | undefined;
  /** A2A agents the task may delegate to (already filtered to those the user allowed). */
  a2a?: readonly A2aAgentConfig[] | undefined;
}

/** Every protocol's tools for one task, MCP first. */
export function protocolTools(p: Protocols): ToolDefinition[] {
  const tools: ToolDefinition[] = [...(p.mcp?.toolsForTask() ?? [])];
  if (p.a2a?.length) tools.push(delegateRemoteTool(p.a2a));
  return tools;
}

/** The A2A files a host reads, user first; `workspaceRoot` undefined: no workspace file. */
export function a2aFiles(
  workspaceRoot: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { path: string; source: A2aAgentConfig['source'] }[] {
  const files: { path: string; source: A2aAgentConfig['source'] }[] = [{ path: path.join(keelConfigDir(env), 'a2a.json'), source: 'user' }];
  if (workspaceRoot) files.push({ path: path.join(workspaceRoot, WORKSPACE_A2A_FILE), source: 'workspace' });
  return files;
}

/** Every agent the files define; a missing file is no agents, an unreadable one a problem. */
export function loadA2aConfigs(files: readonly { path: string; source: A2aAgentConfig['source'] }[]): A2aConfigFile {
  return mergeA2aConfigs(
    files.map((f) => {
      let text: string;
      try {
        text = fs.readFileSync(f.path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { agents: [], problems: [] };
        return { agents: [], problems: [{ file: f.path, message: `could not be read (${(err as Error).message})` }] };
      }
      return parseA2aConfig(text, f.path, f.source);
    }),
  );
}
