// Checkpoints: the prior content of files a step is about to change, kept by the host outside
// the workspace so any step can be compared with now or restored. The kernel decides when to
// record (before the first approved write of each step) and logs what was recorded; the store
// (src/node) keeps the bytes.
import { z } from 'zod';

/** Content hash of a file's bytes, or null when no file was there. */
const FileHashSchema = z.string().nullable();

export const CheckpointFileSchema = z.object({
  /** Workspace-relative POSIX path. */
  path: z.string(),
  before: FileHashSchema,
  after: FileHashSchema,
  /** Present when the bytes were not kept (too large to store): this file cannot be restored. */
  skipped: z.object({ reason: z.enum(['too_large']), size: z.number() }).optional(),
});
export type CheckpointFile = z.infer<typeof CheckpointFileSchema>;

/** What was captured before a step ran: each file's hash (and whether its bytes were kept). */
export type CapturedFile = Omit<CheckpointFile, 'after'>;

/** A capture of the whole workspace, for commands: which files a command changed is found afterwards. */
export interface WorkspaceSnapshot {
  readonly files: ReadonlyMap<string, CapturedFile>;
}

/** One file to put back: the hash to write (null: delete), and the hash it should have now. */
export interface RestoreTarget {
  path: string;
  hash: string | null;
  /** The hash this task last left the file with; a different hash now means the user changed it. */
  expected: string | null;
}

export interface Checkpoints {
  /** Keeps the current bytes of these files before they change. */
  capture(paths: readonly string[]): Promise<CapturedFile[]>;
  /** Keeps the bytes of every non-ignored file that changed since the last scan (by size and mtime). */
  snapshot(): Promise<WorkspaceSnapshot>;
  /** The files whose content differs from the snapshot now, with both hashes. */
  changedSince(snapshot: WorkspaceSnapshot): Promise<CheckpointFile[]>;
  /** Current hash of each path (null: absent). */
  hashes(paths: readonly string[]): Promise<Record<string, string | null>>;
  /** Writes back exactly the recorded bytes (or deletes), after capturing what is there now. */
  restore(targets: readonly RestoreTarget[]): Promise<CheckpointFile[]>;
  /** The stored bytes of a hash, for a diff; undefined when the blob is gone or was never kept. */
  read(hash: string): Promise<Uint8Array | undefined>;
}
