// Host → webview. One discriminated union; the webview validates every message it receives.
import * as z from 'zod/mini';
import { ActivitySchema } from './activity.js';
import { DeltaOpSchema } from './delta-op.js';
import { AttachmentChipSchema, MentionItemSchema } from './attachments.js';
import { WorktreeSessionsSchema } from './worktree-sessions.js';
import { HintsSchema, MeterSchema, RetryNoticeSchema, RunStatusSchema, TaskListSchema } from './view-state.js';

/** The whole view: sent on `webview/ready`, on restore, and when a task is opened. */
const SessionSnapshotSchema = z.object({
  type: z.literal('session/snapshot'),
  /** The seq of the last delta folded into this snapshot; the next delta is seq + 1. */
  seq: z.number(),
  /** Host clock when built, so the webview can tick elapsed times across clock skew. */
  hostNow: z.number(),
  taskId: z.optional(z.string()),
  /**
   * The transcript as a JSON array of TranscriptItem (see `encodeSnapshotItems`). One string
   * crosses postMessage as a copy; 10,000 objects cost a structured clone each way (~100 ms in
   * Chromium). The webview decodes it once and validates each item when it first renders it.
   */
  itemsJson: z.string(),
  status: RunStatusSchema,
  retry: z.nullable(RetryNoticeSchema),
  pendingIntentIds: z.array(z.string()),
  meter: MeterSchema,
  hints: HintsSchema,
  tasks: TaskListSchema,
  /** What the model stream is doing now; absent: nothing beyond the status. */
  activity: z.optional(ActivitySchema),
});
export type SessionSnapshot = z.infer<typeof SessionSnapshotSchema>;

/** A batch of ops; `seq` increases by exactly one per delta, so a gap means a lost message. */
const TranscriptDeltaSchema = z.object({
  type: z.literal('transcript/delta'),
  seq: z.number(),
  ops: z.array(DeltaOpSchema),
});
export type TranscriptDelta = z.infer<typeof TranscriptDeltaSchema>;

const TasksListMessageSchema = z.extend(TaskListSchema, { type: z.literal('tasks/list') });

/** An `@` attachment picked (or the selection added from the editor): a chip for the composer. */
const ComposerAttachSchema = z.object({ type: z.literal('composer/attach'), chip: AttachmentChipSchema });

/** What the `@` menu offers (answer to `mention/list`): the fixed sources, then files and folders. */
const ComposerMentionsSchema = z.object({
  type: z.literal('composer/mentions'),
  items: z.array(MentionItemSchema).check(z.maxLength(5100)),
});

/** The keyboard goes to the composer (New Task, after an `@` pick): the host focused the view. */
const ComposerFocusSchema = z.object({ type: z.literal('composer/focus') });

/** The worktree sessions of the open repository (sent on ready and after each action). */
const WorktreeSessionsMessageSchema = z.extend(WorktreeSessionsSchema, { type: z.literal('worktrees/list') });

export const HostMessageSchema = z.discriminatedUnion('type', [
  WorktreeSessionsMessageSchema,
  SessionSnapshotSchema,
  TranscriptDeltaSchema,
  TasksListMessageSchema,
  ComposerAttachSchema,
  ComposerFocusSchema,
  ComposerMentionsSchema,
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;
