// Serves checkpoint bytes read-only on the `keel-checkpoint:` scheme, the left side of Compare
// (VS Code's multi-file diff). keel-checkpoint:<the file's own path>?<hash>: the same path as
// the file keeps its language, and the multi-file diff sees one file changed, not a rename (it
// marks "R" whenever the two sides' paths differ); an empty query is "no file" (created later).
import type * as vscode from 'vscode';

export const CHECKPOINT_SCHEME = 'keel-checkpoint';

const HASH = /^[0-9a-f]{64}$/;

export function checkpointUri(file: vscode.Uri, hash: string | null): vscode.Uri {
  return file.with({ scheme: CHECKPOINT_SCHEME, query: hash ?? '' });
}

export class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly read: (hash: string) => Promise<Uint8Array | undefined>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === '') return '';
    if (!HASH.test(uri.query)) throw new Error('Not a checkpoint.');
    const bytes = await this.read(uri.query);
    if (!bytes) throw new Error(`The checkpoint of ${uri.path} is no longer stored.`);
    return new TextDecoder('utf-8').decode(bytes);
  }
}
