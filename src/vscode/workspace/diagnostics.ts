// Problems from VS Code's language services, as the kernel's Diagnostic values. A language
// server reports only on documents open in a tab, so asking about one file shows it in a
// preview tab (without taking focus) and waits briefly for its first report.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Diagnostic } from '../../kernel/contracts/index.js';

const FIRST_REPORT_WAIT_MS = 5000;

/** One file's problems (`file`), or every known problem under a folder (the root by default). */
export async function collectDiagnostics(root: string, target?: { file: vscode.Uri } | { folder: string }): Promise<Diagnostic[]> {
  if (target && 'file' in target) {
    await ensureAnalyzed(target.file);
    return toDiagnostics(root, target.file, vscode.languages.getDiagnostics(target.file));
  }
  const folder = target?.folder ?? root;
  const out: Diagnostic[] = [];
  for (const [u, list] of vscode.languages.getDiagnostics()) {
    if (u.scheme !== 'file' || !isInside(folder, u.fsPath)) continue;
    out.push(...toDiagnostics(root, u, list));
  }
  return out;
}

async function ensureAnalyzed(uri: vscode.Uri): Promise<void> {
  if (vscode.languages.getDiagnostics(uri).length > 0) return;
  const inTab = isInTab(uri);
  const reported = new Promise<void>((resolve) => {
    const timer = setTimeout(done, inTab ? FIRST_REPORT_WAIT_MS / 4 : FIRST_REPORT_WAIT_MS);
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) done();
    });
    function done(): void {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    }
  });
  if (!inTab) {
    // Language servers pull diagnostics only for documents open in editor tabs: show it as a
    // preview tab that does not take focus (the user sees which file Keel checks).
    await vscode.workspace
      .openTextDocument(uri)
      .then((doc) => vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true }))
      .then(undefined, () => undefined);
  }
  await reported;
}

/** Whether a tab shows the file (a language server reports only on those). */
export function isInTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => {
      const input = t.input;
      if (input instanceof vscode.TabInputText) return input.uri.toString() === key;
      if (input instanceof vscode.TabInputTextDiff) return input.modified.toString() === key || input.original.toString() === key;
      return false;
    }),
  );
}

function toDiagnostics(root: string, uri: vscode.Uri, list: readonly vscode.Diagnostic[]): Diagnostic[] {
  const rel = path.relative(root, uri.fsPath).split(path.sep).join('/');
  return list.map((d) => ({
    path: rel,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: severityOf(d.severity),
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
  }));
}

function severityOf(s: vscode.DiagnosticSeverity): Diagnostic['severity'] {
  switch (s) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    default:
      return 'hint';
  }
}

function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
