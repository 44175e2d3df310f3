// Attachments: context the user attached to a message with `@` (a file, a folder listing, the
// problems, the editor selection, the git changes, the terminal's output). Each is recorded in
// the user_message event with its content, so a reload or a replay sends exactly what the user
// sent. The content is untrusted data: the projection shows it to the model delimited as
// attached content, never as instructions.
import { z } from 'zod';

const ATTACHMENT_KINDS = ['file', 'folder', 'problems', 'selection', 'changes', 'terminal'] as const;

/**
 * A workspace-relative path with forward slashes: never absolute, never a drive, never `..`.
 * The host resolves it inside the workspace; the log must not be able to say otherwise.
 */
function isWorkspaceRelative(path: string): boolean {
  if (path === '' || path.includes('\\') || path.includes('\0')) return false;
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return false;
  return path.split('/').every((part) => part !== '..' && part !== '');
}

const RangeSchema = z
  .object({ startLine: z.number().int().min(1), endLine: z.number().int().min(1) })
  .refine((r) => r.endLine >= r.startLine, 'endLine before startLine');

export const AttachmentSchema = z.object({
  kind: z.enum(ATTACHMENT_KINDS),
  /** What the chip says ("src/app.ts:3-9", "Problems (4)"). */
  label: z.string().min(1).max(300),
  path: z.string().refine(isWorkspaceRelative, 'path must be workspace-relative, without ..').optional(),
  /** 1-based, inclusive lines of `path` (a selection). */
  range: RangeSchema.optional(),
  /** The kernel's contentHash of the content as captured, before any cut. */
  contentHash: z.string().regex(/^[0-9a-f]{16}$/),
  content: z.string(),
  /** Characters cut off the end to keep within the attachment budget. */
  cutChars: z.number().int().min(1).optional(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;
