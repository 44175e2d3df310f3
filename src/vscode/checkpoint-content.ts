// Serves checkpoint bytes read-only on the `keel-checkpoint:` scheme, the left side of Compare
// (VS Code's multi-file diff). keel-checkpoint:/<workspace path>?<hash>: the path keeps the
// file's language; an empty query is "no file" (created later, so empty before).
import * as vscode from 'vscode';

export const CHECKPOINT_SCHEME = 'keel-checkpoint';

const HASH = /^[0-9a-f]{64}$/;

export function checkpointUri(relPath: string, hash: string | null): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${relPath}`, query: hash ?? '' });
}

export class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly read: (hash: string) => Promise<Uint8Array | undefined>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === '') return '';
    if (!HASH.test(uri.query)) throw new Error('Not a checkpoint.');
    const bytes = await this.read(uri.query);
    if (!bytes) throw new Error(`The checkpoint of ${uri.path.slice(1)} is no longer stored.`);
    return new TextDecoder('utf-8').decode(bytes);
  }
}
