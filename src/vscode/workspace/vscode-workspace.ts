// The Workspace port on VS Code: files through workspace.fs (and open documents), writes
// through WorkspaceEdit + save (undoable, editors in sync), diagnostics from the language
// services, search with VS Code's own ripgrep, commands mirrored live into the Keel terminal.
// Path boundaries, the search fallback and the process runner are the Node port's.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  WorkspaceError,
  type CodeIntel,
  type CommandShell,
  type Diagnostic,
  type DirEntry,
  type FileStat,
  type ProblemSource,
  type ProcessOptions,
  type ProcessResult,
  type SandboxSupport,
  type SearchQuery,
  type SearchResult,
  type WebFetcher,
  type BrowserChecker,
  type Workspace,
} from '../../kernel/contracts/index.js';
import { writeThroughEditor } from '../edits/edit-writer.js';
import { collectDiagnostics } from './diagnostics.js';

export interface VscodeWorkspaceDeps {
  /** The Node port on the same root: resolve (realpath boundary), search (ripgrep), processes. */
  base: Workspace;
  /** Mirrors command output into a terminal the user can watch. */
  mirror?: { begin(commandLine: string, cwd: string): void; write(chunk: string): void; end(result: ProcessResult): void };
  log?: (message: string) => void;
  /** The language servers, with the syntax trees where none answers. */
  codeIntel?: CodeIntel;
  /** The problems edits report, while keel.problemsAfterEdit is on (read at each edit). */
  problems?: { source: ProblemSource; enabled(): boolean };
}

export class VscodeWorkspace implements Workspace {
  constructor(private readonly deps: VscodeWorkspaceDeps) {}

  get root(): string {
    return this.deps.base.root;
  }

  get codeIntel(): CodeIntel | undefined {
    return this.deps.codeIntel;
  }

  /** Web pages are fetched by the Node port, as in the CLI. */
  get web(): WebFetcher | undefined {
    return this.deps.base.web;
  }

  /** Pages are opened by the Node port's headless browser, as in the CLI. */
  get browser(): BrowserChecker | undefined {
    return this.deps.base.browser;
  }

  /** Commands run through the Node port: the same shell and child environment as the CLI's. */
  get shell(): CommandShell | undefined {
    return this.deps.base.shell;
  }

  /** The language services' problems around an edit (settled-problems.ts), unless the setting is off. */
  get problems(): ProblemSource | undefined {
    const p = this.deps.problems;
    return p?.enabled() ? p.source : undefined;
  }

  /** …and the same OS sandbox. */
  get sandbox(): SandboxSupport | undefined {
    return this.deps.base.sandbox;
  }

  resolve(p: string): Promise<string> {
    return this.deps.base.resolve(p);
  }

  /** The absolute file URI of a workspace path (after the boundary check). */
  async uri(p: string): Promise<vscode.Uri> {
    const rel = await this.resolve(p);
    return vscode.Uri.file(rel === '' || rel === '.' ? this.root : path.join(this.root, ...rel.split('/')));
  }

  async readFile(p: string): Promise<Uint8Array> {
    const uri = await this.uri(p);
    // What the user sees in an editor with unsaved changes is the file's current content.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) return new TextEncoder().encode(open.getText());
    try {
      return await vscode.workspace.fs.readFile(uri);
    } catch (error) {
      throw toWorkspaceError(error, p);
    }
  }

  /** A file too large to hold whole is read from disk in pieces by the Node port. */
  readChunks(p: string, signal: AbortSignal): AsyncIterable<Uint8Array> {
    const read = this.deps.base.readChunks;
    if (!read) throw new WorkspaceError('io_error', `${p} cannot be read in pieces here.`);
    return read.call(this.deps.base, p, signal);
  }

  /**
   * Through a WorkspaceEdit (undo, open editors in sync) with the bytes put on disk atomically
   * by the Node port: never a half-written file, not even for a moment.
   */
  async writeFile(p: string, data: Uint8Array): Promise<void> {
    const rel = await this.resolve(p);
    const uri = await this.uri(rel);
    const before = await this.stat(rel);
    if (before && before.type !== 'file') throw new WorkspaceError('not_a_file', `${p} is not a file.`);
    try {
      const outcome = await writeThroughEditor(uri, data, before !== undefined, () => this.deps.base.writeFile(rel, data));
      void outcome.clean.then((clean) => {
        if (!clean) this.deps.log?.(`${rel} was written, but its editor still shows it as unsaved (its text equals the file)`);
      });
    } catch (error) {
      throw toWorkspaceError(error, p);
    }
  }

  async stat(p: string): Promise<FileStat | undefined> {
    const uri = await this.uri(p);
    try {
      const s = await vscode.workspace.fs.stat(uri);
      return { type: kindOf(s.type), size: s.size, mtimeMs: s.mtime };
    } catch (error) {
      const mapped = toWorkspaceError(error, p);
      if (mapped.code === 'not_found') return undefined;
      throw mapped;
    }
  }

  async readDir(p: string): Promise<DirEntry[]> {
    const rel = await this.resolve(p);
    const uri = await this.uri(p);
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(uri);
    } catch (error) {
      const mapped = toWorkspaceError(error, p);
      if (mapped.code === 'io_error' && (await this.stat(p))?.type === 'file') {
        throw new WorkspaceError('not_a_directory', `${p} is not a folder.`);
      }
      throw mapped;
    }
    const prefix = rel === '' || rel === '.' ? '' : `${rel}/`;
    return entries.map(([name, type]) => ({ path: `${prefix}${name}`, type: kindOf(type) })).sort((a, b) => a.path.localeCompare(b.path));
  }

  /** ripgrep (VS Code's own binary, given to the Node port), or its walking fallback. */
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
    return this.deps.base.search(query, signal);
  }

  async runProcess(commandLine: string, options: ProcessOptions): Promise<ProcessResult> {
    const mirror = this.deps.mirror;
    if (!mirror) return this.deps.base.runProcess(commandLine, options);
    mirror.begin(commandLine, options.cwd ?? '.');
    const result = await this.deps.base.runProcess(commandLine, {
      ...options,
      onOutput: (chunk, stream) => {
        mirror.write(chunk);
        options.onOutput?.(chunk, stream);
      },
    });
    mirror.end(result);
    return result;
  }

  /** A file's problems (opening it for its language server if need be), or a folder's. */
  async diagnostics(p?: string): Promise<Diagnostic[]> {
    if (p === undefined) return collectDiagnostics(this.root);
    const uri = await this.uri(p);
    const kind = (await this.stat(p))?.type;
    if (kind === 'directory') return collectDiagnostics(this.root, { folder: uri.fsPath });
    return collectDiagnostics(this.root, { file: uri });
  }
}

function kindOf(type: vscode.FileType): FileStat['type'] {
  if (type & vscode.FileType.Directory) return 'directory';
  if (type & vscode.FileType.File) return 'file';
  return 'other';
}

function toWorkspaceError(error: unknown, p: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  if (error instanceof vscode.FileSystemError) {
    switch (error.code) {
      case 'FileNotFound':
        return new WorkspaceError('not_found', `${p} does not exist.`);
      case 'FileIsADirectory':
        return new WorkspaceError('not_a_file', `${p} is a folder, not a file.`);
      case 'FileNotADirectory':
        return new WorkspaceError('not_a_directory', `${p} is not a folder.`);
      case 'NoPermissions':
        return new WorkspaceError('permission_denied', `No permission to access ${p}.`);
    }
  }
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'ENOENT') return new WorkspaceError('not_found', `${p} does not exist.`);
  if (code === 'EACCES' || code === 'EPERM') return new WorkspaceError('permission_denied', `No permission to access ${p}.`);
  return new WorkspaceError('io_error', `Could not access ${p}: ${messageOf(error)}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
