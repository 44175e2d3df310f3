// The ProblemSource on VS Code: the language services' problems once they settle after an edit.
// No fixed sleep: after the write it waits for the diagnostics to change and then for QUIET_MS
// without a change, at most CAP_MS in all (a file no language server reports on costs the cap).
// The baseline before an edit is what the editor shows now, once the files are shown in a tab
// (a language server reports only on those), so a problem the file already had is not "new".
import * as vscode from 'vscode';
import type { ProblemSnapshot, ProblemSource, SnapshotOptions } from '../../kernel/contracts/index.js';
import { collectDiagnostics, isInTab } from './diagnostics.js';

export interface SettleTiming {
  quietMs: number;
  capMs: number;
}

const DEFAULT_TIMING: SettleTiming = { quietMs: 300, capMs: 3000 };
const CHECKER = 'VS Code';

export function settledProblemSource(root: string, timing: SettleTiming = DEFAULT_TIMING): ProblemSource {
  return {
    async snapshot(files: readonly string[], o: SnapshotOptions): Promise<ProblemSnapshot> {
      if (o.reuse) {
        const opened = await openUnopened(root, files);
        if (opened) await settle(timing, o.signal);
      } else {
        await settle(timing, o.signal);
      }
      return { problems: await collectDiagnostics(root), checkers: [CHECKER], notes: [] };
    },
  };
}

/**
 * Shows in a preview tab (without taking focus) the files no tab shows yet, since language servers
 * report only on those; whether any was.
 */
async function openUnopened(root: string, files: readonly string[]): Promise<boolean> {
  let opened = false;
  for (const rel of files) {
    const uri = vscode.Uri.joinPath(vscode.Uri.file(root), rel);
    if (isInTab(uri)) continue;
    // A file the edit creates does not exist yet: nothing to open.
    const shown = await vscode.workspace.openTextDocument(uri).then(
      (doc) => vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true }).then(() => true),
      () => false,
    );
    opened ||= shown;
  }
  return opened;
}

/** Resolves once the diagnostics changed and then stayed still for quietMs, or at capMs, or on abort. */
function settle(timing: SettleTiming, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const cap = setTimeout(done, timing.capMs);
    const sub = vscode.languages.onDidChangeDiagnostics(() => {
      if (quiet) clearTimeout(quiet);
      quiet = setTimeout(done, timing.quietMs);
    });
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(cap);
      if (quiet) clearTimeout(quiet);
      sub.dispose();
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
