// `keel run`'s MCP servers: the user's mcp.json, each --mcp-config file (as trusted as the
// user's own), and the workspace's .vscode/mcp.json only with --mcp-workspace (otherwise its
// servers are listed and skipped). Problems and failures are printed to stderr; the run goes on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMcpHub, loadMcpConfigs, mcpFiles } from '../compose/index.js';
import type { McpHub } from '../mcp/index.js';
import { InputError, type RunOptions } from './args.js';

/**
 * A config file the user named must be there: a typo would otherwise run the task without its
 * servers or agents (exit 2).
 */
export function requireConfigFiles(o: Pick<RunOptions, 'mcpConfigs' | 'a2aConfigs'>): void {
  const named: [string, string[]][] = [
    ['--mcp-config', o.mcpConfigs],
    ['--a2a-config', o.a2aConfigs],
  ];
  for (const [flag, files] of named)
    for (const f of files) if (!fs.statSync(f, { throwIfNoEntry: false })?.isFile()) throw new InputError(`${flag} ${f}: no such file.`);
}

export async function cliMcpHub(
  o: Pick<RunOptions, 'mcpConfigs' | 'mcpWorkspace' | 'passEnv'>,
  root: string,
  env: NodeJS.ProcessEnv,
  stderr: NodeJS.WritableStream,
): Promise<McpHub | undefined> {
  const files = [...mcpFiles(root, env), ...o.mcpConfigs.map((f) => ({ path: path.resolve(f), source: 'user' as const }))];
  const config = loadMcpConfigs(files);
  for (const p of config.problems) stderr.write(`keel: MCP config ${p.file}${p.server ? ` (server "${p.server}")` : ''}: ${p.message}\n`);
  if (config.servers.length === 0) return undefined;
  const hub = createMcpHub(config.servers, {
    cwd: root,
    mayStart: (c) => c.source === 'user' || o.mcpWorkspace,
    riskOverrides: () => config.risk ?? {},
    trustedReadsOnly: true,
    passEnv: () => o.passEnv,
  });
  hub.onNotice((n) => stderr.write(`keel: MCP server "${n.server}": ${n.message}\n`));
  await hub.startAll();
  for (const s of hub.status()) {
    if (s.state === 'awaiting_approval')
      stderr.write(`keel: skipped the workspace's MCP server "${s.name}" (${s.line}); pass --mcp-workspace to start it.\n`);
    else if (s.state === 'failed') stderr.write(`keel: MCP server "${s.name}" did not start: ${s.error}\n${tail(s.stderrTail)}`);
  }
  return hub;
}

function tail(text: string): string {
  const lines = text.trimEnd().split('\n').slice(-5);
  return lines[0] ? `${lines.map((l) => `  | ${l}`).join('\n')}\n` : '';
}
