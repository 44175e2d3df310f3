// What each `@` attachment carries, built from the Workspace port and plain values (no vscode
// here, so it is unit-tested): a file's text, a folder's listing (ignore rules honoured, files
// that may hold secrets left out, as list_files does), the problems, a selection, the git
// changes, the terminal's last output. Every path goes through the workspace's resolve, so
// nothing outside the workspace is attached; each content is hashed and cut at the cap.
import { ATTACHMENT_TOKEN_CAP } from '../../kernel/attachments.js';
import { contentHash, type Attachment, type Diagnostic, type Workspace } from '../../kernel/index.js';
import { walk } from '../../tools/ignore/walk.js';
import { isSecretFile } from '../../tools/policy/protected-paths.js';

/** Why an attachment could not be made, in words for the user. */
export class AttachmentRefused extends Error {}

const MAX_CHARS = ATTACHMENT_TOKEN_CAP * 4;
const MAX_LISTED = 400;
const decoder = new TextDecoder('utf-8', { fatal: false });

export function makeAttachment(
  kind: Attachment['kind'],
  label: string,
  content: string,
  where: { path?: string; range?: Attachment['range'] } = {},
): Attachment {
  const kept = content.slice(0, MAX_CHARS);
  return {
    kind,
    label: label.slice(0, 300),
    ...(where.path !== undefined ? { path: where.path } : {}),
    ...(where.range ? { range: where.range } : {}),
    contentHash: contentHash(content),
    content: kept,
    ...(kept.length < content.length ? { cutChars: content.length - kept.length } : {}),
  };
}

/** A workspace path the user may attach: inside the root, not a file that may hold secrets. */
async function allowedPath(ws: Workspace, path: string): Promise<string> {
  const rel = await ws.resolve(path).catch(() => {
    throw new AttachmentRefused(`${path} is outside the workspace: not attached.`);
  });
  if (isSecretFile(rel)) throw new AttachmentRefused(`${rel} may hold secrets: not attached (ask Keel to read it if you mean to).`);
  return rel;
}

export async function fileAttachment(ws: Workspace, path: string): Promise<Attachment> {
  const rel = await allowedPath(ws, path);
  if (rel === '') throw new AttachmentRefused('The workspace root is a folder.');
  const bytes = await ws.readFile(rel);
  if (bytes.subarray(0, 8192).includes(0)) throw new AttachmentRefused(`${rel} is a binary file: not attached.`);
  return makeAttachment('file', rel, decoder.decode(bytes), { path: rel });
}

export async function folderAttachment(ws: Workspace, path: string): Promise<Attachment> {
  const rel = await allowedPath(ws, path);
  const shown: string[] = [];
  let more = 0;
  for await (const e of walk(ws, rel, { recursive: true })) {
    if (e.type !== 'directory' && isSecretFile(e.path)) continue;
    if (shown.length < MAX_LISTED) shown.push(e.type === 'directory' ? `${e.path}/` : e.path);
    else more++;
  }
  shown.sort();
  const note = more ? `\n[${more} more entries not listed]` : '';
  const label = rel === '' ? 'Workspace folder' : `${rel}/`;
  return makeAttachment(
    'folder',
    label,
    (shown.join('\n') || '(empty, or everything in it is ignored)') + note,
    rel === '' ? {} : { path: rel },
  );
}

export function problemsAttachment(diagnostics: readonly Diagnostic[]): Attachment {
  const shown = diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
  const lines = shown.map(
    (d) => `${d.path}:${d.line}:${d.column} ${d.severity}${d.source ? ` [${d.source}]` : ''}: ${d.message.split('\n')[0]}`,
  );
  return makeAttachment('problems', `Problems (${shown.length})`, lines.join('\n') || 'No errors or warnings.');
}

export async function selectionAttachment(
  ws: Workspace,
  path: string,
  range: { startLine: number; endLine: number },
  text: string,
): Promise<Attachment> {
  const rel = await allowedPath(ws, path);
  if (text.trim() === '') throw new AttachmentRefused('Nothing is selected.');
  return makeAttachment('selection', `${rel}:${range.startLine}-${range.endLine}`, text, { path: rel, range });
}

/**
 * The git changes, without the diffs of files that may hold secrets (`.env`, `.env.local`, …):
 * a changed `.env` would otherwise go to the model line by line. What was left out is named.
 */
export function changesAttachment(diff: string): Attachment {
  const { kept, left } = withoutSecretFiles(diff);
  const note = left.length ? `\n(Left out, may hold secrets: the changes to ${left.join(', ')}.)\n` : '';
  const content = kept.trim() === '' && !note ? 'No uncommitted changes to tracked files.' : `${kept}${note}`;
  return makeAttachment('changes', 'Changes (git diff)', content);
}

/** A unified diff split at each file (`diff --git a/… b/…`), the secret files' parts dropped. */
function withoutSecretFiles(diff: string): { kept: string; left: string[] } {
  const parts = diff.split(/^(?=diff --git )/m);
  const left: string[] = [];
  const kept = parts.filter((part) => {
    const files = /^diff --git a\/(.+?) b\/(.+)$/m.exec(part);
    if (!files || !(isSecretFile(files[1]!) || isSecretFile(files[2]!))) return true;
    left.push(files[2]!);
    return false;
  });
  return { kept: kept.join(''), left };
}

export function terminalAttachment(output: string): Attachment {
  if (output.trim() === '') throw new AttachmentRefused('The Keel terminal has no output yet.');
  return makeAttachment('terminal', 'Terminal output', output);
}

/** Attachments picked in the composer and not sent yet, by id: their content stays here. */
export class PendingAttachments {
  private readonly byId = new Map<string, Attachment>();
  private next = 0;

  constructor(private readonly limit = 64) {}

  add(attachment: Attachment): string {
    const id = `att${++this.next}`;
    this.byId.set(id, attachment);
    // A composer that never sends must not grow this forever: the oldest go first.
    for (const key of this.byId.keys()) {
      if (this.byId.size <= this.limit) break;
      this.byId.delete(key);
    }
    return id;
  }

  /** The attachments of `ids`, removed; unknown ids are reported, not guessed at. */
  take(ids: readonly string[]): { attachments: Attachment[]; unknown: string[] } {
    const attachments: Attachment[] = [];
    const unknown: string[] = [];
    for (const id of ids) {
      const a = this.byId.get(id);
      if (a) attachments.push(a);
      else unknown.push(id);
      this.byId.delete(id);
    }
    return { attachments, unknown };
  }
}
