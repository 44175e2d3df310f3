// Builds the VS Code Workspace port for a folder: the Node port underneath (realpath boundary,
// processes — with the keys in secret storage and the credential-looking variables of the
// editor's environment withheld from them, but for those keel.commands.passEnv lists — search
// with VS Code's bundled ripgrep or the walking fallback; commands in the OS sandbox as the
// policy chose), and the Keel terminal mirroring every command. The syntax-tree index starts
// from its cache (the one `keel run` keeps for the same folder) and reports its progress.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TreeSitterIntel } from '../../codeintel/tree-sitter-intel.js';
import { secretDetector } from '../../compose/index.js';
import { withheldCredentials } from '../../node/command-shell.js';
import { createNodeWorkspace } from '../../node/node-workspace.js';
import type { NodeSandbox } from '../../node/sandbox/node-sandbox.js';
import { keelSandboxCacheDir } from '../../node/sandbox/toolchain-view.js';
import { COMMAND_SANDBOX_RULES } from '../../tools/policy/protected-paths.js';
import { createWebFetcher } from '../../node/web-fetcher.js';
import { createBrowserChecker } from '../../node/browser/browser-checker.js';
import { LanguageIntel } from './language-intel.js';
import { searchByWalking } from '../../tools/search/walking-search.js';
import type { KeelTerminal } from './keel-terminal.js';
import { findRipgrep } from '../../host/settings/ripgrep-path.js';
import { VscodeWorkspace } from './vscode-workspace.js';
import { codeIndexCacheFile, codeIndexStore } from '../../node/code-index-store.js';
import { IndexProgressRelay } from '../../host/workspace/index-progress-relay.js';
import { settledProblemSource } from './settled-problems.js';

export interface HostWorkspace {
  workspace: VscodeWorkspace;
  rgPath: string | undefined;
  /** The OS sandbox commands (and MCP servers marked read-only) run in. */
  sandbox: NodeSandbox | undefined;
  /** The file watcher that keeps the syntax-tree index current. */
  disposables: vscode.Disposable[];
  /** The index's progress while it parses, for the panel's line. */
  indexProgress: IndexProgressRelay;
}

/** The files the syntax-tree index reads (src/codeintel/languages.ts), and the ignore files. */
const SOURCE_GLOB = '**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx,py,pyi,go,rs,java}';
const IGNORE_GLOB = '**/{.gitignore,.keelignore}';

export async function createHostWorkspace(
  folder: vscode.Uri,
  terminal: KeelTerminal,
  log: (message: string) => void,
  withheldSecrets: () => Promise<Iterable<string>>,
  sandboxUnavailable: (reason: string) => void,
  passEnv: () => readonly string[],
  webAllowHosts: () => readonly string[],
): Promise<HostWorkspace> {
  const rgPath = await findRipgrep(vscode.env.appRoot);
  log(rgPath ? `ripgrep: ${rgPath}` : `ripgrep: not found under ${vscode.env.appRoot}; looking on PATH, else the walking search`);
  // Absent rgPath: the Node port looks for rg on PATH before walking.
  const base = await createNodeWorkspace(folder.fsPath, {
    ...(rgPath ? { rgPath } : {}),
    fallbackSearch: searchByWalking,
    withheldSecrets,
    sandbox: { rules: COMMAND_SANDBOX_RULES, onUnavailable: sandboxUnavailable, cacheDir: keelSandboxCacheDir(process.env, os.homedir()) },
    credentials: { detector: secretDetector(), passEnv },
    web: createWebFetcher({ allowHosts: webAllowHosts }),
    browser: createBrowserChecker({ allowHosts: webAllowHosts }),
  });
  const withheld = withheldCredentials(process.env, { held: [], credentials: secretDetector(), pass: passEnv() });
  if (withheld.length > 0)
    log(`commands will not see ${withheld.join(', ')} (they look like credentials; keel.commands.passEnv passes one)`);
  const indexProgress = new IndexProgressRelay();
  const cache = codeIndexStore(codeIndexCacheFile(base.root));
  const trees = new TreeSitterIntel(base, { watched: true, cache, onProgress: indexProgress.report });
  const problems = {
    source: settledProblemSource(base.root),
    enabled: () => vscode.workspace.getConfiguration('keel').get<boolean>('problemsAfterEdit', true),
  };
  const workspace = new VscodeWorkspace({ base, mirror: terminal, log, codeIntel: new LanguageIntel(base.root, trees), problems });
  return {
    workspace,
    rgPath,
    sandbox: base.sandbox as NodeSandbox | undefined,
    disposables: watchSources(base.root, trees),
    indexProgress,
  };
}

/** Keeps the index current from file events, so a fold's repo map needs no walk of the folder. */
function watchSources(root: string, trees: TreeSitterIntel): vscode.Disposable[] {
  const rel = (uri: vscode.Uri) => path.relative(root, uri.fsPath).split(path.sep).join('/');
  const sources = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), SOURCE_GLOB));
  const touch = (uri: vscode.Uri) => void trees.index.touch([rel(uri)]).catch(() => trees.index.invalidate());
  const ignores = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), IGNORE_GLOB));
  const rewalk = () => trees.index.invalidate();
  return [
    sources,
    sources.onDidChange(touch),
    sources.onDidCreate(touch),
    sources.onDidDelete(touch),
    ignores,
    ignores.onDidChange(rewalk),
    ignores.onDidCreate(rewalk),
    ignores.onDidDelete(rewalk),
  ];
}
