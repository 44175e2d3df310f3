// Serves the proposed side of an edit's diff on the `keel-proposed:` scheme. The content
// lives only in memory until the edit is approved: nothing touches the real file before.
import * as vscode from 'vscode';

export const PROPOSED_SCHEME = 'keel-proposed';

export type ProposalSide = 'proposed' | 'original';

/** keel-proposed:/<workspace path>?<intentId>#<side> — the path keeps the file's language. */
export function proposalUri(relPath: string, intentId: string, side: ProposalSide = 'proposed'): vscode.Uri {
  return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${relPath}`, query: intentId, fragment: side });
}

export function intentIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === PROPOSED_SCHEME && uri.query ? uri.query : undefined;
}

export class ProposedContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  has(uri: vscode.Uri): boolean {
    return this.contents.has(uri.toString());
  }

  /** Forgets every side of an intent's proposal. */
  forget(intentId: string): void {
    for (const key of [...this.contents.keys()]) {
      if (intentIdOf(vscode.Uri.parse(key)) === intentId) this.contents.delete(key);
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
    this.contents.clear();
  }
}
