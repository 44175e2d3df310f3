// The `@` picker: a VS Code quick pick (fuzzy, keyboard-first, accessible) of the problems, the
// editor selection, the git changes, the Keel terminal's output, and the workspace's files and
// folders. A pick becomes a pending attachment (its content kept here) and a chip in the
// composer; the message that sends it takes it. "Keel: Add Selection to Chat" does the same
// for the selection from the editor.
import * as vscode from 'vscode';
import type { Attachment, Workspace } from '../../kernel/index.js';
import type { AttachmentChip, HostMessage } from '../../protocol/index.js';
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

type Item = vscode.QuickPickItem & { make?: () => Promise<Attachment> };

export class AttachmentPicker {
  private readonly pending = new PendingAttachments();

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
        label: '$(warning) Problems',
        description: 'errors and warnings in the workspace',
        make: async () => problemsAttachment((await ws.diagnostics?.()) ?? []),
      },
      { label: '$(selection) Selection', description: selected, make: () => this.selection(ws) },
      {
        label: '$(git-compare) Changes',
        description: 'uncommitted changes (git diff)',
        make: async () => changesAttachment(await gitDiff(ws.root)),
      },
      {
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
      if (e.type === 'directory') items.push({ label: `$(folder) ${e.path}/`, make: () => folderAttachment(ws, e.path) });
      else if (e.type === 'file' && !isSecretFile(e.path))
        items.push({ label: `$(file) ${e.path}`, make: () => fileAttachment(ws, e.path) });
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
