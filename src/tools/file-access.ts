// Reading a file for a change, and refusing stale changes. An edit or overwrite is allowed only
// when the file's content hash equals the one the agent last read in this task; otherwise the
// tool answers `stale` with the current content attached (and its new version recorded), so the
// model can retry at once without another read. A file never read counts as stale too.
import { contentHash, type EditPreview, type PrecheckContext, type ToolResult, type Workspace } from '../kernel/index.js';
import { markerRefusal } from './edit/redaction-marker.js';
import { decodeText, isBinary } from './text/encoding.js';
import { LineIndex } from './text/line-index.js';
import { numberedWithin } from './text/numbered.js';
import { failure } from './tool-result.js';

export interface FileSnapshot {
  /** Canonical workspace-relative path: the key of fileVersions. */
  rel: string;
  bytes: Uint8Array | undefined;
  hash: string | undefined;
}

export async function snapshot(ws: Workspace, path: string): Promise<FileSnapshot | ToolResult> {
  const rel = await ws.resolve(path);
  const st = await ws.stat(rel);
  if (!st) return { rel, bytes: undefined, hash: undefined };
  if (st.type !== 'file')
    return failure('invalid_input', `${rel} is a ${st.type === 'directory' ? 'folder' : 'special file'}, not a file.`, {
      retryable: false,
    });
  const bytes = await ws.readFile(rel);
  return { rel, bytes, hash: contentHash(bytes) };
}

export function isResult(x: FileSnapshot | ToolResult): x is ToolResult {
  return 'ok' in x;
}

/** The stale answer, or undefined when the agent's last read matches the file. */
export function staleCheck(snap: FileSnapshot, ctx: Pick<PrecheckContext, 'fileVersions'>, budgetChars: number): ToolResult | undefined {
  if (!snap.bytes || !snap.hash) return undefined;
  const known = ctx.fileVersions[snap.rel];
  if (known === snap.hash) return undefined;
  const why =
    known === undefined
      ? `${snap.rel} has not been read in this task; read the file first. Its current content is below.`
      : `${snap.rel} changed since you last read it (edited by someone else or another tool). Its current content is below.`;
  return failure(
    'stale',
    `${why} Nothing was written; retry against this content.\n\n${currentContent(snap.bytes, budgetChars - why.length - 80)}`,
    {
      fileVersions: { [snap.rel]: snap.hash },
      summary: `${snap.rel} is stale`,
    },
  );
}

function currentContent(bytes: Uint8Array, maxChars: number): string {
  if (isBinary(bytes)) return '(binary file)';
  const idx = new LineIndex(decodeText(bytes).text);
  if (idx.length === 0) return '(empty file)';
  const page = numberedWithin((i) => idx.raw(i), 0, idx.length, Math.max(200, maxChars - 120));
  if (page.nextLine >= idx.length) return page.text;
  return `${page.text}\n[Showing lines 1–${page.nextLine} of ${idx.length}. Call read_file with startLine: ${page.nextLine + 1} to read on.]`;
}

/**
 * The checks of a change that need no user (run before approval is asked): the path is a file
 * (or absent), an existing file was read in this task as it is now, and the change applies to it
 * (`unplanned`: the answer when it does not — an edit whose search text is not in the file is
 * failed to the model here, never shown as a card whose Approve then fails).
 */
export async function precheckChange(
  path: string,
  ctx: PrecheckContext,
  budgetChars: number,
  missing?: (rel: string) => ToolResult,
  preview?: (snap: FileSnapshot) => EditPreview,
  unplanned?: (message: string, rel: string) => ToolResult,
): Promise<ToolResult | undefined> {
  const snap = await snapshot(ctx.workspace, path);
  if (isResult(snap)) return snap;
  if (!snap.bytes && missing) return missing(snap.rel);
  const stale = staleCheck(snap, ctx, budgetChars);
  if (stale || !preview) return stale;
  const planned = preview(snap);
  if (!planned.ok) return unplanned?.(planned.message, snap.rel);
  // The diff the host would show: never one that writes the redaction marker over a secret.
  const refused = snap.bytes ? markerRefusal(snap.rel, decodeText(snap.bytes).text, planned.proposedContent, ctx.secrets) : undefined;
  if (!refused && ctx.offerPreview) offer(snap, planned, ctx.offerPreview);
  return refused;
}

/** The preview planned on the bytes the precheck read, for the diff the user is about to see. */
function offer(snap: FileSnapshot, preview: EditPreview, to: NonNullable<PrecheckContext['offerPreview']>): void {
  if (preview.ok) to({ rel: snap.rel, baseHash: snap.hash, preview });
}
