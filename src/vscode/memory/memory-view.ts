// The Memory view in the Keel container: every memory grouped by scope, its provenance in the
// tooltip; Edit and Delete on each row, "Remember…" in the title bar and the palette. It redraws
// when the store changes in this window (the model's tools included) or its files change on
// disk (another window).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MemoryRecord, MemoryScope, Workspace } from '../../kernel/index.js';
import { extensionMemoryFiles, JsonlMemoryStore, type MemoryFiles } from '../../node/memory-store.js';
import { memoryStalePaths } from '../../tools/index.js';
import { editMemory, memoryTextProblem, rememberStated } from '../../host/memory/memory-edits.js';
import { groupByScope, memoryDescription, memoryLabel, memoryTooltip, type MemoryGroup } from '../../host/memory/memory-items.js';
import { ObservedMemoryStore } from '../../host/memory/observed-store.js';

const MEMORY_VIEW_ID = 'keel.memory';
/** contextValue of a memory row: the Edit and Delete menus are shown for it. */
const MEMORY_ITEM = 'keel.memoryItem';

type MemoryNode = { kind: 'group'; group: MemoryGroup } | { kind: 'memory'; record: MemoryRecord; stale: string[] };

export interface MemoryViewDeps {
  store: ObservedMemoryStore;
  files: MemoryFiles;
  /** For the stale mark: the files a memory concerns, hashed now. */
  workspace: Workspace | undefined;
  log: { warn(message: string): void };
}

/**
 * The memory store in the extension's storage: the user's memories in global storage, this
 * workspace's in workspace storage. Undefined (logged) when it cannot be opened: Keel then
 * works without memory rather than not at all.
 */
export function openExtensionMemory(
  context: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'storageUri'>,
  workspaceRoot: string | undefined,
  log: { warn(message: string): void; error(message: string): void },
): { store: ObservedMemoryStore; files: MemoryFiles } | undefined {
  try {
    const files = extensionMemoryFiles({ global: context.globalStorageUri.fsPath, workspace: context.storageUri?.fsPath }, workspaceRoot);
    const store = JsonlMemoryStore.open(files);
    for (const p of store.problems) log.warn(`set aside a damaged memory line (${p.reason})`);
    return { store: new ObservedMemoryStore(store), files };
  } catch (error) {
    log.error(`Keel cannot open its memory store, so this window keeps no memories: ${String(error)}`);
    return undefined;
  }
}

class MemoryTreeProvider implements vscode.TreeDataProvider<MemoryNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly deps: MemoryViewDeps) {}

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  async getChildren(node?: MemoryNode): Promise<MemoryNode[]> {
    if (!node) {
      const groups = groupByScope(await this.deps.store.list(), this.deps.files.workspace !== undefined);
      return groups.map((group) => ({ kind: 'group', group }));
    }
    if (node.kind !== 'group') return [];
    return Promise.all(node.group.records.map(async (record) => ({ kind: 'memory' as const, record, stale: await this.stale(record) })));
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(node.group.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `scope:${node.group.scope}`;
      item.description = String(node.group.records.length);
      return item;
    }
    const now = Date.now();
    const item = new vscode.TreeItem(memoryLabel(node.record), vscode.TreeItemCollapsibleState.None);
    item.id = node.record.id;
    item.description = memoryDescription(node.record, now, node.stale);
    item.tooltip = memoryTooltip(node.record, now, node.stale);
    item.contextValue = MEMORY_ITEM;
    item.iconPath = new vscode.ThemeIcon(node.stale.length > 0 ? 'warning' : node.record.source.author === 'user' ? 'person' : 'sparkle');
    return item;
  }

  private async stale(record: MemoryRecord): Promise<string[]> {
    const ws = this.deps.workspace;
    if (!ws || record.scope !== 'workspace') return [];
    return memoryStalePaths(record, ws).catch(() => []);
  }
}

export function registerMemoryView(deps: MemoryViewDeps): vscode.Disposable[] {
  const provider = new MemoryTreeProvider(deps);
  const unsubscribe = deps.store.onDidChange(() => provider.refresh());
  return [
    provider,
    { dispose: unsubscribe },
    vscode.window.createTreeView(MEMORY_VIEW_ID, { treeDataProvider: provider, showCollapseAll: false }),
    ...watchFiles(deps.files, () => provider.refresh()),
    vscode.commands.registerCommand('keel.rememberMemory', () => remember(deps)),
    vscode.commands.registerCommand('keel.editMemory', (node?: MemoryNode) => edit(deps, node)),
    vscode.commands.registerCommand('keel.deleteMemory', (node?: MemoryNode) => remove(deps, node)),
  ];
}

/** Without a store the commands still answer, saying why, instead of "command not found". */
export function registerMemoryUnavailable(): vscode.Disposable[] {
  const explain = () => void vscode.window.showErrorMessage("Keel could not open its memory store in this window (Keel's log says why).");
  return ['keel.rememberMemory', 'keel.editMemory', 'keel.deleteMemory'].map((id) => vscode.commands.registerCommand(id, explain));
}

/** Another window appending to the same files: the view follows. */
function watchFiles(files: MemoryFiles, onChange: () => void): vscode.Disposable[] {
  const out: vscode.Disposable[] = [];
  for (const file of [files.user, files.workspace]) {
    if (file === undefined) continue;
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)),
    );
    out.push(watcher, watcher.onDidChange(onChange), watcher.onDidCreate(onChange), watcher.onDidDelete(onChange));
  }
  return out;
}

async function remember(deps: MemoryViewDeps): Promise<void> {
  const text = await vscode.window.showInputBox({
    title: 'Keel: Remember',
    prompt: 'What should Keel remember across tasks? (your words, kept as stated; never a secret)',
    validateInput: (value) => memoryTextProblem(value),
    ignoreFocusOut: true,
  });
  if (text === undefined) return;
  const scope = await pickScope(deps);
  if (!scope) return;
  const outcome = await rememberStated(deps.store, text, scope, Date.now());
  if (!outcome.ok) void vscode.window.showErrorMessage(outcome.reason);
}

async function pickScope(deps: MemoryViewDeps): Promise<MemoryScope | undefined> {
  if (deps.files.workspace === undefined) return 'user';
  const picks: (vscode.QuickPickItem & { scope: MemoryScope })[] = [
    { label: 'This workspace', description: 'only tasks in this folder see it', scope: 'workspace' },
    { label: 'Every workspace', description: 'a preference of yours', scope: 'user' },
  ];
  return (await vscode.window.showQuickPick(picks, { title: 'Keel: Remember — for which tasks?', ignoreFocusOut: true }))?.scope;
}

async function edit(deps: MemoryViewDeps, node: MemoryNode | undefined): Promise<void> {
  if (node?.kind !== 'memory') return;
  const text = await vscode.window.showInputBox({
    title: 'Keel: Edit Memory',
    value: node.record.text,
    validateInput: (value) => memoryTextProblem(value),
    ignoreFocusOut: true,
  });
  if (text === undefined || text === node.record.text) return;
  const outcome = await editMemory(deps.store, node.record.id, text, Date.now());
  if (!outcome.ok) void vscode.window.showErrorMessage(outcome.reason);
}

async function remove(deps: MemoryViewDeps, node: MemoryNode | undefined): Promise<void> {
  if (node?.kind !== 'memory') return;
  const answer = await vscode.window.showWarningMessage(
    'Delete this memory? Keel forgets it for good.',
    { modal: true, detail: node.record.text },
    'Delete',
  );
  if (answer !== 'Delete') return;
  if (!(await deps.store.tombstone(node.record.id))) deps.log.warn(`memory ${node.record.id} was already deleted`);
}
