// The `@` picker: a VS Code quick pick (fuzzy, keyboard-first, accessible) of the problems, the
// editor selection, the git changes, the Keel terminal's output, and the workspace's files and
// folders. A pick becomes a pending attachment (its content kept here) and a chip in the
// composer; the message that sends it takes it. "Keel: Add Selection to Chat" does the same
// for the selection from the editor.
import * as vscode from 'vscode';
import type { Attachment, Workspace } from '../../kernel/index.js';
import { type AttachmentChip, type HostMessage, MAX_MENTION_KEY, type MentionItem } from '../../protocol/index.js';
import { walk } from '../../tools/ignore/walk.js';
import { isSecretFile } from '../../tools/policy/protected-paths.js';
import {
  AttachmentRefused,
  changesAttachment,
  fileAttachment,
  folderAttachment,
  PendingAttachments,
  problemsAttachment,
  selectionAttachment,
  terminalAttachment,
} from '../../host/session/attachment-content.js';

/** Files and folders offered in the picker; past this the user narrows with a folder. */
const MAX_PICKER_ENTRIES = 5_000;

export interface AttachmentPickerDeps {
  workspace: Workspace | undefined;
  terminalOutput(): string;
  post(message: HostMessage): void;
  reveal(): Promise<void>;
  /** The view and its composer get the keyboard back (the picker took it from them). */
  focusComposer(): Promise<void>;
  log: { warn(m: string): void };
}

/** A source: its quick pick row, its key and kind for the view's `@` menu, and how it is attached. */
type Item = vscode.QuickPickItem & { key?: string; mention?: MentionItem['kind']; make?: () => Promise<Attachment> };

export class AttachmentPicker {
  private readonly pending = new PendingAttachments();
  /** The sources the view's `@` menu was last given, by key. */
  private mentionable = new Map<string, () => Promise<Attachment>>();

  constructor(private readonly deps: AttachmentPickerDeps) {}

  /** The attachments a sent message names by id. */
  take(ids: readonly string[]): Attachment[] {
    const { attachments, unknown } = this.pending.take(ids);
    if (unknown.length) this.deps.log.warn(`ignored unknown attachment ids: ${unknown.join(', ')}`);
    return attachments;
  }

  async pick(): Promise<void> {
    const ws = this.deps.workspace;
    if (!ws) return void vscode.window.showWarningMessage('Keel: open a folder to attach files and context.');
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = 'Add context to the message';
    qp.placeholder = 'Type to search files and folders, or pick Problems, Selection, Changes, Terminal';
    qp.matchOnDescription = true;
    const fixed = this.fixedItems(ws);
    qp.items = fixed;
    qp.busy = true;
    const filled = this.fileItems(ws).then((files) => {
      qp.items = [...fixed, { label: 'Files and folders', kind: vscode.QuickPickItemKind.Separator }, ...files];
      qp.busy = false;
    });
    const chosen = await new Promise<Item | undefined>((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0]));
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
    qp.dispose();
    void filled.catch((error: unknown) => this.deps.log.warn(`listing files for the picker failed: ${String(error)}`));
    if (chosen?.make) await this.attach(chosen.make);
    // Picked or dismissed, the user goes on writing the message, not in the file that was open.
    await this.deps.focusComposer();
  }

  /**
   * `@` typed in the composer: the view's menu at the caret gets what the quick pick offers (the
   * same sources, by key); `choose` attaches the one picked there. The keyboard stays in the view.
   */
  async listMentions(): Promise<void> {
    const ws = this.deps.workspace;
    if (!ws) return this.deps.post({ type: 'composer/mentions', items: [] });
    const items = [...this.fixedItems(ws), ...(await this.fileItems(ws))];
    this.mentionable = new Map(items.flatMap((i) => (i.key && i.make ? [[i.key, i.make] as const] : [])));
    this.deps.post({ type: 'composer/mentions', items: items.flatMap(mentionOf) });
  }

  async choose(key: string): Promise<void> {
    const make = this.mentionable.get(key);
    if (!make) return this.deps.log.warn(`ignored an unknown @ pick ${key.slice(0, 80)}`);
    await this.attach(make);
  }

  /** The command and the editor's context menu: the active selection as a chip. */
  async addSelection(): Promise<void> {
    const ws = this.deps.workspace;
    if (!ws) return void vscode.window.showWarningMessage('Keel: open a folder to attach a selection.');
    await this.deps.reveal();
    await this.attach(() => this.selection(ws));
  }

  private async attach(make: () => Promise<Attachment>): Promise<void> {
    try {
      const a = await make();
      const chip: AttachmentChip = {
        id: this.pending.add(a),
        kind: a.kind,
        label: a.label,
        ...(a.cutChars ? { cutChars: a.cutChars } : {}),
      };
      this.deps.post({ type: 'composer/attach', chip });
    } catch (error) {
      const message =
        error instanceof AttachmentRefused ? error.message : `Could not attach: ${error instanceof Error ? error.message : String(error)}`;
      if (!(error instanceof AttachmentRefused)) this.deps.log.warn(message);
      void vscode.window.showWarningMessage(`Keel: ${message}`);
    }
  }

  private fixedItems(ws: Workspace): Item[] {
    const editor = vscode.window.activeTextEditor;
    const selected =
      editor && !editor.selection.isEmpty
        ? `${vscode.workspace.asRelativePath(editor.document.uri)}:${lines(editor.selection).startLine}-${lines(editor.selection).endLine}`
        : 'nothing selected';
    return [
      {
        key: 'problems',
        mention: 'problems',
        label: '$(warning) Problems',
        description: 'errors and warnings in the workspace',
        make: async () => problemsAttachment((await ws.diagnostics?.()) ?? []),
      },
      { key: 'selection', mention: 'selection', label: '$(selection) Selection', description: selected, make: () => this.selection(ws) },
      {
        key: 'changes',
        mention: 'changes',
        label: '$(git-compare) Changes',
        description: 'uncommitted changes (git diff)',
        make: async () => changesAttachment(await gitDiff(ws.root)),
      },
      {
        key: 'terminal',
        mention: 'terminal',
        label: '$(terminal) Terminal',
        description: 'the last command in the Keel terminal',
        make: async () => terminalAttachment(this.deps.terminalOutput()),
      },
    ];
  }

  private async fileItems(ws: Workspace): Promise<Item[]> {
    const items: Item[] = [];
    for await (const e of walk(ws, '', { recursive: true })) {
      if (items.length >= MAX_PICKER_ENTRIES) break;
      if (e.type === 'directory')
        items.push({ key: `folder:${e.path}`, mention: 'folder', label: `$(folder) ${e.path}/`, make: () => folderAttachment(ws, e.path) });
      else if (e.type === 'file' && !isSecretFile(e.path))
        items.push({ key: `file:${e.path}`, mention: 'file', label: `$(file) ${e.path}`, make: () => fileAttachment(ws, e.path) });
    }
    return items;
  }

  private async selection(ws: Workspace): Promise<Attachment> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) throw new AttachmentRefused('Select some text in an editor first.');
    if (editor.document.uri.scheme !== 'file') throw new AttachmentRefused('The selection is not in a workspace file: not attached.');
    return selectionAttachment(ws, editor.document.uri.fsPath, lines(editor.selection), editor.document.getText(editor.selection));
  }
}

/** A source as the view's menu lists it: the label without its icon, within the protocol's lengths. */
function mentionOf(item: Item): MentionItem[] {
  if (!item.key || !item.mention || item.key.length > MAX_MENTION_KEY) return [];
  const label = item.label.replace(/^\$\([\w-]+\)\s*/, '').slice(0, MAX_MENTION_KEY);
  return [{ key: item.key, label, kind: item.mention, ...(item.description ? { description: item.description.slice(0, 300) } : {}) }];
}

/** 1-based lines; a selection ending at the start of a line does not include that line. */
function lines(s: vscode.Selection): { startLine: number; endLine: number } {
  const end = s.end.character === 0 && s.end.line > s.start.line ? s.end.line : s.end.line + 1;
  return { startLine: s.start.line + 1, endLine: end };
}

/** The part of VS Code's git extension API used here (vscode.git, API version 1). */
interface GitRepository {
  rootUri: vscode.Uri;
  diff(cached?: boolean): Promise<string>;
}
interface GitApi {
  repositories: GitRepository[];
}

/** Staged and unstaged changes of the repository holding `root`, through VS Code's git extension. */
async function gitDiff(root: string): Promise<string> {
  const ext = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!ext) throw new AttachmentRefused("VS Code's git extension is not available: changes not attached.");
  const api = (ext.isActive ? ext.exports : await ext.activate()).getAPI(1);
  const repo = api.repositories.find((r) => root === r.rootUri.fsPath || root.startsWith(`${r.rootUri.fsPath}/`)) ?? api.repositories[0];
  if (!repo) throw new AttachmentRefused('No git repository is open in this workspace: changes not attached.');
  const [staged, unstaged] = await Promise.all([repo.diff(true), repo.diff(false)]);
  return [staged, unstaged].filter((d) => d.trim() !== '').join('\n');
}
