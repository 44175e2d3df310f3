// Webview → host. One discriminated union; the host validates every message it receives.
import * as z from 'zod/mini';
import { IntentIdSchema, TaskIdSchema } from './ids.js';
import { AgentModeSchema, ApprovalScopeSchema } from './kernel-enums.js';
import { ImageInputSchema, MAX_IMAGES_PER_MESSAGE, MAX_MENTION_KEY } from './attachments.js';
import { RestoreModeSchema } from './checkpoint-items.js';
import { SessionNameSchema, WorktreeActionSchema } from './worktree-sessions.js';

const m = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.object({ type: z.literal(type), ...shape });

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  /** Sent on load and after a seq gap: the host answers with `session/snapshot`. */
  m('webview/ready', { lastSeq: z.optional(z.number()) }),
  m('task/send', {
    text: z.string().check(z.minLength(1)),
    /** Ids of the composer's `@` attachments (the host holds their content). */
    attachmentIds: z.optional(z.array(z.string()).check(z.maxLength(32))),
    images: z.optional(z.array(ImageInputSchema).check(z.maxLength(MAX_IMAGES_PER_MESSAGE))),
    /** The header's mode picker: the message is sent in this mode (absent: the task's own). */
    mode: z.optional(AgentModeSchema),
    /** The header's picker: sent as this custom agent; '' sends it as none (absent: the task's own). */
    agent: z.optional(z.string().check(z.maxLength(64))),
  }),
  /** Plan mode's plan (the task's to-do list) approved: the task goes on in Agent mode with it. */
  m('plan/approve', {}),
  /** The `@` button: the host shows its picker and answers with `composer/attach`. */
  m('attach/pick', {}),
  /** `@` was typed: the view's menu at the caret asks what can be attached (`composer/mentions`). */
  m('mention/list', {}),
  /** One of those picked in the view's menu: the host attaches it and answers with `composer/attach`. */
  m('mention/pick', { key: z.string().check(z.maxLength(MAX_MENTION_KEY)) }),
  /** The header's model button: the host shows the models of the configured provider. */
  m('model/pick', {}),
  /** The header's auto-approve button: the host shows the classes as toggles. */
  m('autoApprove/pick', {}),
  m('task/stop', {}),
  /** Stop on a background process in the panel's list: the shown task's process of that name ends. */
  m('process/stop', { name: z.string().check(z.maxLength(40)) }),
  m('task/new', {}),
  m('task/open', { id: TaskIdSchema }),
  m('task/delete', { id: TaskIdSchema }),
  m('task/resume', {}),
  /**
   * Retry on a failed run (`n<seq>` is its failure notice): the message that started that run is
   * sent again, with the settings as they are now. Only the task's latest failure can be retried.
   */
  m('task/retry', { noticeId: z.optional(z.string()) }),
  /** Retry on the activity line's stall notice: the stream that went quiet is dropped and the turn streams again. */
  m('turn/retry', {}),
  /** Edit and resend an earlier user message (`u<seq>`): the task forks there into a new one. */
  m('task/fork', { messageId: z.string(), text: z.string().check(z.minLength(1)) }),
  m('intent/approve', { intentId: IntentIdSchema, scope: ApprovalScopeSchema }),
  m('intent/reject', { intentId: IntentIdSchema, reason: z.optional(z.string()) }),
  /** A card was clicked: the host focuses its diff editor / terminal. */
  m('intent/focus', { intentId: IntentIdSchema }),
  m('apiKey/set', {}),
  m('log/show', {}),
  /** Fold now: the current task's finished steps into an episode note. */
  m('context/fold', {}),
  /** Links never navigate the webview; the host opens them (after its own checks). */
  m('link/open', { href: z.string() }),
  /** Copy buttons go through the host's clipboard (reliable inside webviews). */
  m('clipboard/copy', { text: z.string() }),
  /** Insert at cursor on a code block: the text goes into the active editor (one undoable edit). */
  m('editor/insert', { text: z.string() }),
  /** Apply to file… on a code block: the host asks which file, then shows the diff for approval. */
  m('editor/apply', { text: z.string() }),
  /** The files changed by the checkpoints with seq in [fromSeq, toSeq] against now (one file: `path`). */
  m('checkpoint/compare', { fromSeq: z.number(), toSeq: z.number(), path: z.optional(z.string()) }),
  /** Back to how things were right after event `afterSeq`: the files, the conversation, or both. */
  m('checkpoint/restore', { afterSeq: z.number(), mode: RestoreModeSchema }),
  /** A file path in an answer (`src/price.js:12`): the host opens it only inside the workspace. */
  m('file/open', { path: z.string().check(z.maxLength(1000)), line: z.optional(z.number()) }),
  /** A name on the "Rules: …" line: the host opens it only if the shown task used that file. */
  m('rules/open', { path: z.string() }),
  /** A worktree session's Review (its diff editors), Apply (to the main folder) or Discard (asked once). */
  m('worktree/act', { name: SessionNameSchema, action: WorktreeActionSchema }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;
