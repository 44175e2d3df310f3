// The side bar's worktree sessions (keel run --worktree, issue 39): one row per session with its
// status in words, cost against its cap and files changed, and the three things a person does
// with one — Review, Apply, Discard — named by the session's name (checked here, and again by the
// host against its records).
import * as z from 'zod/mini';

/** A session name as Keel makes them (src/node/worktrees/repo.ts). */
export const SessionNameSchema = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/));

const WorktreeSessionRowSchema = z.object({
  name: SessionNameSchema,
  branch: z.string(),
  /** In words: running, done, failed, stopped, stopped at its cap, missing…, applied. */
  status: z.string(),
  costUsd: z.nullable(z.number()),
  capUsd: z.optional(z.number()),
  tokens: z.number(),
  capTokens: z.optional(z.number()),
  /** Share of the tightest cap spent, 0..1 (absent: no cap): the row's bar. */
  spent: z.optional(z.number()),
  /** Absent when the folder is gone. */
  filesChanged: z.optional(z.number()),
});
export type WorktreeSessionRow = z.infer<typeof WorktreeSessionRowSchema>;

export const WorktreeSessionsSchema = z.object({
  sessions: z.array(WorktreeSessionRowSchema),
  /** Worktrees Keel made and no longer tracks: shown for cleanup, never deleted from here. */
  untracked: z.array(z.string()),
});
export type WorktreeSessions = z.infer<typeof WorktreeSessionsSchema>;

export const WorktreeActionSchema = z.enum(['review', 'apply', 'discard']);
export type WorktreeAction = z.infer<typeof WorktreeActionSchema>;
