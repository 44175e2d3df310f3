// The code-intelligence port in VS Code: the language servers the user already runs, through
// the built-in commands (vscode.executeWorkspaceSymbolProvider, …DefinitionProvider,
// …ReferenceProvider, …DocumentSymbolProvider, …HoverProvider). When no server answers (none
// for the language, none started yet, or it found nothing) or one fails, Keel's syntax trees
// answer instead and the answer says so. The repo map always comes from the syntax trees, with
// the files open in editors as part of the task's focus.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type {
  CodeIntel,
  CodeIntelAnswer,
  CodeLocation,
  CodeSymbol,
  RepoMap,
  RepoMapRequest,
  SymbolQuery,
} from '../../kernel/contracts/index.js';
import { hoverText, symbolKind, toCodeSymbols } from './language-results.js';

export class LanguageIntel implements CodeIntel {
  constructor(
    private readonly root: string,
    private readonly fallback: CodeIntel,
  ) {}

  async findSymbols(query: SymbolQuery, signal: AbortSignal): Promise<CodeIntelAnswer<CodeSymbol>> {
    return this.ask(
      async () => {
        const found =
          (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query.name)) ?? [];
        const wanted = query.name.toLowerCase();
        const items = found
          .map((s) => ({ s, rel: this.relative(s.location.uri) }))
          .filter(({ s, rel }) => rel !== undefined && s.name.toLowerCase().includes(wanted))
          .map(({ s, rel }) => toSymbol(s, rel!))
          .filter((s) => !query.kind || s.kind === query.kind);
        // Exact names first: a server ranks fuzzily.
        items.sort((a, b) => Number(b.name === query.name) - Number(a.name === query.name));
        return items.slice(0, query.limit);
      },
      () => this.fallback.findSymbols(query, signal),
    );
  }

  definitions(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<CodeLocation>> {
    return this.ask(
      async () =>
        this.locations(
          await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
            'vscode.executeDefinitionProvider',
            this.uri(at.path),
            position(at),
          ),
        ),
      () => this.fallback.definitions(at, signal),
    );
  }

  references(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<CodeLocation>> {
    return this.ask(
      async () =>
        this.locations(
          await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', this.uri(at.path), position(at)),
        ),
      () => this.fallback.references(at, signal),
    );
  }

  outline(file: string, signal: AbortSignal): Promise<CodeIntelAnswer<CodeSymbol>> {
    return this.ask(
      async () => {
        const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>(
          'vscode.executeDocumentSymbolProvider',
          this.uri(file),
        );
        return toCodeSymbols(found ?? [], file);
      },
      () => this.fallback.outline(file, signal),
    );
  }

  hover(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<string>> {
    return this.ask(
      async () => {
        const hovers =
          (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', this.uri(at.path), position(at))) ?? [];
        return hovers.map(hoverText).filter((t) => t.trim() !== '');
      },
      () => this.fallback.hover(at, signal),
    );
  }

  repoMap(request: RepoMapRequest, signal: AbortSignal): Promise<RepoMap | undefined> {
    const open = vscode.window.tabGroups.all.flatMap((g) =>
      g.tabs.flatMap((t) => (t.input instanceof vscode.TabInputText ? [this.relative(t.input.uri)] : [])),
    );
    const focusPaths = [...request.focusPaths, ...open.filter((p): p is string => p !== undefined)];
    return this.fallback.repoMap?.({ ...request, focusPaths }, signal) ?? Promise.resolve(undefined);
  }

  /** The server's answer; the syntax trees' when it has none or fails (the answer says which). */
  private async ask<T>(server: () => Promise<T[]>, trees: () => Promise<CodeIntelAnswer<T>>): Promise<CodeIntelAnswer<T>> {
    let items: T[];
    try {
      items = await server();
    } catch {
      return { ...(await trees()), fallback: 'language_server_failed' };
    }
    if (items.length > 0) return { engine: 'language-server', items };
    const answer = await trees();
    return answer.engine === 'tree-sitter' ? { ...answer, fallback: 'no_language_server' } : answer;
  }

  private locations(found: readonly (vscode.Location | vscode.LocationLink)[] | undefined): CodeLocation[] {
    const out: CodeLocation[] = [];
    for (const l of found ?? []) {
      const uri = 'targetUri' in l ? l.targetUri : l.uri;
      const range = 'targetUri' in l ? (l.targetSelectionRange ?? l.targetRange) : l.range;
      const rel = this.relative(uri);
      // Outside the folder (a library's .d.ts) keeps a relative path the tools leave out and count.
      out.push({ path: rel ?? `../${path.basename(uri.fsPath)}`, line: range.start.line + 1, column: range.start.character + 1 });
    }
    return out;
  }

  private uri(rel: string): vscode.Uri {
    return vscode.Uri.file(path.join(this.root, ...rel.split('/')));
  }

  /** A file URI as a workspace-relative POSIX path; undefined for other schemes. */
  private relative(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    return path.relative(this.root, uri.fsPath).split(path.sep).join('/');
  }
}

function position(at: CodeLocation): vscode.Position {
  return new vscode.Position(at.line - 1, at.column - 1);
}

function toSymbol(s: vscode.SymbolInformation, rel: string): CodeSymbol {
  const start = s.location.range.start;
  return {
    path: rel,
    line: start.line + 1,
    column: start.character + 1,
    endLine: s.location.range.end.line + 1,
    name: s.name,
    kind: symbolKind(s.kind),
    ...(s.containerName ? { container: s.containerName } : {}),
  };
}
