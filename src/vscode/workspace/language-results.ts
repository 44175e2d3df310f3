// VS Code's language-feature results as the kernel's code-intelligence values: symbol kinds,
// document symbols (nested or flat), hover contents as text.
import * as vscode from 'vscode';
import type { CodeSymbol, CodeSymbolKind } from '../../kernel/contracts/index.js';

const KINDS: Partial<Record<vscode.SymbolKind, CodeSymbolKind>> = {
  [vscode.SymbolKind.Class]: 'class',
  [vscode.SymbolKind.Struct]: 'class',
  [vscode.SymbolKind.Interface]: 'interface',
  [vscode.SymbolKind.Enum]: 'enum',
  [vscode.SymbolKind.TypeParameter]: 'type',
  [vscode.SymbolKind.Function]: 'function',
  [vscode.SymbolKind.Method]: 'method',
  [vscode.SymbolKind.Constructor]: 'constructor',
  [vscode.SymbolKind.Property]: 'property',
  [vscode.SymbolKind.Field]: 'field',
  [vscode.SymbolKind.Variable]: 'variable',
  [vscode.SymbolKind.Constant]: 'constant',
  [vscode.SymbolKind.EnumMember]: 'constant',
  [vscode.SymbolKind.Module]: 'module',
  [vscode.SymbolKind.Namespace]: 'module',
  [vscode.SymbolKind.Package]: 'module',
};

export function symbolKind(kind: vscode.SymbolKind): CodeSymbolKind {
  return KINDS[kind] ?? 'other';
}

/** A document's symbols as an outline tree of one file. */
export function toCodeSymbols(found: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[], file: string): CodeSymbol[] {
  return found.map((s) => {
    if (s instanceof vscode.SymbolInformation || !('children' in s)) {
      const info = s as vscode.SymbolInformation;
      const at = info.location.range;
      return {
        path: file,
        name: info.name,
        kind: symbolKind(info.kind),
        line: at.start.line + 1,
        column: at.start.character + 1,
        endLine: at.end.line + 1,
      };
    }
    const doc = s as vscode.DocumentSymbol;
    const children = toCodeSymbols(doc.children, file);
    return {
      path: file,
      name: doc.name,
      kind: symbolKind(doc.kind),
      line: doc.selectionRange.start.line + 1,
      column: doc.selectionRange.start.character + 1,
      endLine: doc.range.end.line + 1,
      ...(children.length ? { children } : {}),
    };
  });
}

/** A hover's contents as plain text (markdown kept as written). */
export function hoverText(h: vscode.Hover): string {
  return h.contents
    .map((c) => {
      if (typeof c === 'string') return c;
      if (c instanceof vscode.MarkdownString) return c.value;
      const marked = c as { language?: string; value: string };
      return marked.language ? `\`\`\`${marked.language}\n${marked.value}\n\`\`\`` : marked.value;
    })
    .join('\n\n');
}
