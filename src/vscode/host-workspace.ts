// Builds the VS Code Workspace port for a folder: the Node port underneath (realpath boundary,
// processes — with the keys in secret storage withheld from them — search with VS Code's
// bundled ripgrep or the walking fallback; commands in the OS sandbox as the policy chose), and
// the Keel terminal mirroring every command.
import * as vscode from 'vscode';
import { createNodeWorkspace } from '../node/node-workspace.js';
import type { NodeSandbox } from '../node/sandbox/node-sandbox.js';
import { COMMAND_SANDBOX_RULES } from '../tools/policy/protected-paths.js';
import { searchByWalking } from '../tools/search/walking-search.js';
import type { KeelTerminal } from './keel-terminal.js';
import { findRipgrep } from './ripgrep-path.js';
import { VscodeWorkspace } from './vscode-workspace.js';

export interface HostWorkspace {
  workspace: VscodeWorkspace;
  rgPath: string | undefined;
  /** The OS sandbox commands (and MCP servers marked read-only) run in. */
  sandbox: NodeSandbox | undefined;
}

export async function createHostWorkspace(
  folder: vscode.Uri,
  terminal: KeelTerminal,
  log: (message: string) => void,
  withheldSecrets: () => Promise<Iterable<string>>,
  sandboxUnavailable: (reason: string) => void,
): Promise<HostWorkspace> {
  const rgPath = await findRipgrep(vscode.env.appRoot);
  log(rgPath ? `ripgrep: ${rgPath}` : `ripgrep: not found under ${vscode.env.appRoot}; looking on PATH, else the walking search`);
  // Absent rgPath: the Node port looks for rg on PATH before walking.
  const base = await createNodeWorkspace(folder.fsPath, {
    ...(rgPath ? { rgPath } : {}),
    fallbackSearch: searchByWalking,
    withheldSecrets,
    sandbox: { rules: COMMAND_SANDBOX_RULES, onUnavailable: sandboxUnavailable },
  });
  const workspace = new VscodeWorkspace({ base, mirror: terminal, log });
  return { workspace, rgPath, sandbox: base.sandbox as NodeSandbox | undefined };
}
