// Builds the VS Code Workspace port for a folder: the Node port underneath (realpath boundary,
// processes — with the keys in secret storage and the credential-looking variables of the
// editor's environment withheld from them, but for those keel.commands.passEnv lists — search
// with VS Code's bundled ripgrep or the walking fallback), and the Keel terminal mirroring every
// command.
import * as vscode from 'vscode';
import { secretDetector } from '../compose/index.js';
import { withheldCredentials } from '../node/command-shell.js';
import { createNodeWorkspace } from '../node/node-workspace.js';
import { searchByWalking } from '../tools/search/walking-search.js';
import type { KeelTerminal } from './keel-terminal.js';
import { findRipgrep } from './ripgrep-path.js';
import { VscodeWorkspace } from './vscode-workspace.js';

export interface HostWorkspace {
  workspace: VscodeWorkspace;
  rgPath: string | undefined;
}

export async function createHostWorkspace(
  folder: vscode.Uri,
  terminal: KeelTerminal,
  log: (message: string) => void,
  withheldSecrets: () => Promise<Iterable<string>>,
  passEnv: () => readonly string[],
): Promise<HostWorkspace> {
  const rgPath = await findRipgrep(vscode.env.appRoot);
  log(rgPath ? `ripgrep: ${rgPath}` : `ripgrep: not found under ${vscode.env.appRoot}; looking on PATH, else the walking search`);
  // Absent rgPath: the Node port looks for rg on PATH before walking.
  const base = await createNodeWorkspace(folder.fsPath, {
    ...(rgPath ? { rgPath } : {}),
    fallbackSearch: searchByWalking,
    withheldSecrets,
    credentials: { detector: secretDetector(), passEnv },
  });
  const withheld = withheldCredentials(process.env, { held: [], credentials: secretDetector(), pass: passEnv() });
  if (withheld.length > 0)
    log(`commands will not see ${withheld.join(', ')} (they look like credentials; keel.commands.passEnv passes one)`);
  const workspace = new VscodeWorkspace({ base, mirror: terminal, log });
  return { workspace, rgPath };
}
