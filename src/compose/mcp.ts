// Step 3 of composing a runtime: the MCP servers. The same files for every host: the user's
// `$XDG_CONFIG_HOME/keel/mcp.json` (else `~/.config/keel/mcp.json`) and the workspace's
// `.vscode/mcp.json`; the CLI may name more. A stdio server gets the environment run_command
// gets (no provider keys, no held secret, no inherited credential the user did not pass) plus
// the variables its definition sets; one the user marked read-only starts in the OS sandbox.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SandboxMode } from '../kernel/index.js';
import { McpHub, type McpConfigFile, type McpHubOptions, mergeMcpConfigs, parseMcpConfig } from '../mcp/index.js';
import type { McpRiskOverrides, McpServerConfig } from '../mcp/index.js';
import { childEnvironment } from '../node/command-shell.js';
import type { NodeSandbox } from '../node/sandbox/node-sandbox.js';
import { secretDetector } from './secrets/detector.js';
import { keelConfigDir } from '../node/config-folder.js';

/** The workspace's own file, relative to its root (VS Code's convention). */
const WORKSPACE_MCP_FILE = '.vscode/mcp.json';

export interface McpFile {
  path: string;
  source: McpServerConfig['source'];
}

/** The user's file: the same path for the CLI and the extension, so both agree. */
function userMcpConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(keelConfigDir(env), 'mcp.json');
}

/** The files a host reads, user first; `workspaceRoot` undefined: no workspace file. */
export function mcpFiles(workspaceRoot: string | undefined, env: NodeJS.ProcessEnv = process.env): McpFile[] {
  const files: McpFile[] = [{ path: userMcpConfigPath(env), source: 'user' }];
  if (workspaceRoot) files.push({ path: path.join(workspaceRoot, WORKSPACE_MCP_FILE), source: 'workspace' });
  return files;
}

/** Every server the files define; a missing file is no servers, an unreadable one a problem. */
export function loadMcpConfigs(files: readonly McpFile[]): McpConfigFile {
  return mergeMcpConfigs(
    files.map((f) => {
      let text: string;
      try {
        text = fs.readFileSync(f.path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [], problems: [] };
        return { servers: [], problems: [{ file: f.path, message: `could not be read (${(err as Error).message})` }] };
      }
      return parseMcpConfig(text, f.path, f.source);
    }),
  );
}

export interface McpHubInput extends Omit<McpHubOptions, 'env' | 'launch'> {
  /** Secrets the host holds (API keys): never passed to a server. */
  secrets?: () => readonly string[];
  /** The workspace's OS sandbox and the user's choice: a server the user marked read-only starts in it. */
  sandbox?: { support: NodeSandbox; mode(): SandboxMode };
  /** Inherited variables passed though they look like credentials (the user's setting or --pass-env). */
  passEnv?: () => readonly string[];
}

export function createMcpHub(servers: readonly McpServerConfig[], input: McpHubInput): McpHub {
  const { sandbox } = input;
  return new McpHub(servers, {
    ...input,
    env: (configured) =>
      childEnvironment(process.env, configured, {
        held: input.secrets?.() ?? [],
        credentials: secretDetector(),
        pass: input.passEnv?.(),
      }),
    ...(sandbox
      ? { launch: sandboxedLaunch(sandbox, input.riskOverrides), riskOverrides: () => overridesWith(sandbox, input.riskOverrides()) }
      : {}),
  });
}

/**
 * A stdio server whose every tool the user marked read-only (`keel.mcp.risk`: "read" for the
 * server) starts inside the read-only sandbox, as commands that run unasked do.
 */
function sandboxedLaunch(sandbox: NonNullable<McpHubInput['sandbox']>, overrides: () => McpRiskOverrides): McpHubOptions['launch'] {
  return (config, cwd, env) => {
    const d = config.definition;
    if (d.type === 'http' || sandbox.mode() === 'off' || overrides()[config.name] !== 'read') return undefined;
    // Without a sandbox it starts as defined, and overridesWith makes its tools ask.
    if (sandbox.support.status().type !== 'ready') return undefined;
    const launch = sandbox.support.launch([d.command, ...d.args], cwd ?? process.cwd(), 'read_only', env, false);
    return { command: launch.file, args: launch.args };
  };
}

/** Without a sandbox a server marked read-only cannot be held to it: its tools ask, as any command then does. */
function overridesWith(sandbox: NonNullable<McpHubInput['sandbox']>, overrides: McpRiskOverrides): McpRiskOverrides {
  if (sandbox.mode() === 'off' || sandbox.support.status().type === 'ready') return overrides;
  return Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, !k.includes('/') && v === 'read' ? 'execute' : v]));
}
