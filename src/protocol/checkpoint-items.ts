// The transcript items of checkpoints: one per step that changed files (or a restore), and a
// Files changed summary at the end of each run. Paths arrive already made visible by the host
// (kernel `visibleText`); the webview shows them as text.
import * as z from 'zod/mini';

const FileChangeSchema = z.enum(['added', 'modified', 'deleted']);

const CheckpointFileViewSchema = z.object({
  path: z.string(),
  change: FileChangeSchema,
  /** Its bytes were not kept (over the per-file cap): this file cannot be restored or compared. */
  skippedBytes: z.optional(z.number()),
});

/** A step (or a restore) changed these files; the buttons restore or compare at this point. */
export const CheckpointItemSchema = z.object({
  kind: z.literal('checkpoint'),
  id: z.string(),
  /** The checkpoint event's seq: restoring "to here" undoes every checkpoint after it. */
  seq: z.number(),
  step: z.number(),
  restore: z.boolean(),
  files: z.array(CheckpointFileViewSchema),
});

const RunFileSchema = z.object({
  path: z.string(),
  change: FileChangeSchema,
  /** Line counts once the host has computed them (absent: unknown, e.g. bytes not kept). */
  added: z.optional(z.number()),
  removed: z.optional(z.number()),
});

/** The files a run changed, at the end of the run; `undone`: a restore put them all back since. */
export const ChangesItemSchema = z.object({
  kind: z.literal('changes'),
  id: z.string(),
  undone: z.optional(z.boolean()),
  /** Seq of the run's first and last checkpoint. */
  fromSeq: z.number(),
  toSeq: z.number(),
  files: z.array(RunFileSchema),
});

export type CheckpointItem = z.infer<typeof CheckpointItemSchema>;
export type ChangesItem = z.infer<typeof ChangesItemSchema>;
export type FileChange = z.infer<typeof FileChangeSchema>;

/** What a restore button asks for: the files, the conversation (a fork of the task), or both. */
export const RestoreModeSchema = z.enum(['files', 'task', 'both']);
export type RestoreMode = z.infer<typeof RestoreModeSchema>;
